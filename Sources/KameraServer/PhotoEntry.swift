import Foundation
import GRDB

/// A photo analysed through `POST /v1/detect` (table `photo`): its name, size and how much
/// was found (the full results went back to the caller).
struct PhotoEntry: Codable, Sendable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "photo"

    var name: String
    var analysedAt: Date
    var width: Int
    var height: Int
    var barcodes: Int
    var faces: Int
    var textLines: Int

    /// The JSON `GET /v1/photos` lists.
    struct Listing: Encodable {
        var name: String
        var analysedAt: String
        var width: Int
        var height: Int
        var barcodes: Int
        var faces: Int
        var textLines: Int
    }

    var listing: Listing {
        Listing(
            name: name, analysedAt: analysedAt.ISO8601Format(), width: width, height: height, barcodes: barcodes, faces: faces,
            textLines: textLines)
    }
}
