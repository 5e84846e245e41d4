import Foundation
import GRDB

/// A recording in the results library (table `recording`): the movie and its thumbnail in the
/// data directory, what stopped it, and whether it was finished (false while being written;
/// a recording cut off by a crash is finished at the next start, as "interrupted").
struct RecordingEntry: Codable, Sendable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "recording"

    var id: String
    var startedAt: Date
    var width: Int
    var height: Int
    var duration: Double
    var frames: Int
    var bytes: Int64
    /// Why it ended; nil while being written.
    var stopReason: RecordingEndReason?
    var complete: Bool
    var hasThumbnail: Bool
    /// What was recorded: `browser` (frames a page sent) or the server camera's path.
    var source: String?

    /// A new recording from `source`, listed as being written before its first frame.
    static func started(source: String) -> RecordingEntry {
        RecordingEntry(
            id: UUID().uuidString, startedAt: Date(), width: 0, height: 0, duration: 0, frames: 0, bytes: 0, stopReason: nil,
            complete: false, hasThumbnail: false, source: source)
    }

    var movieName: String { "\(id).mp4" }
    var thumbnailName: String { "\(id).thumbnail.png" }

    /// The JSON `GET /v1/recordings` lists.
    struct Listing: Encodable {
        var id: String
        var startedAt: String
        var width: Int
        var height: Int
        var duration: Double
        var frames: Int
        var bytes: Int64
        var stopReason: RecordingEndReason?
        var complete: Bool
        var movie: String
        var thumbnail: String?
        var source: String?
    }

    var listing: Listing {
        Listing(
            id: id, startedAt: startedAt.ISO8601Format(), width: width, height: height, duration: (duration * 1000).rounded() / 1000,
            frames: frames, bytes: bytes, stopReason: stopReason, complete: complete, movie: "/v1/recordings/\(id)/movie",
            thumbnail: hasThumbnail ? "/v1/recordings/\(id)/thumbnail" : nil, source: source)
    }
}
