import Foundation
import GRDB

/// A photo taken with a server camera (`POST /v1/cameras/{index}/photo`), in the results
/// library (table `still`): the JPEG (full size, EXIF orientation and time) and a small
/// thumbnail in the data directory, beside the recordings — the seeds' save-to-album.
struct StillEntry: Codable, Sendable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "still"

    var id: String
    var takenAt: Date
    var width: Int
    var height: Int
    var bytes: Int64
    /// The server camera's path.
    var source: String
    /// Whether faces were covered in it (a camera with `--privacy`, or a page covering faces).
    var facesCovered: Bool

    var imageName: String { "\(id).jpg" }
    var thumbnailName: String { "\(id).thumbnail.jpg" }

    /// The JSON `GET /v1/stills` lists: the entry and where its image and thumbnail are served.
    struct Listing: Encodable {
        var entry: StillEntry

        private enum Keys: String, CodingKey { case image, thumbnail }

        func encode(to encoder: any Encoder) throws {
            try entry.encode(to: encoder)
            var values = encoder.container(keyedBy: Keys.self)
            try values.encode("/v1/stills/\(entry.id)/image", forKey: .image)
            try values.encode("/v1/stills/\(entry.id)/thumbnail", forKey: .thumbnail)
        }
    }

    var listing: Listing { Listing(entry: self) }
}
