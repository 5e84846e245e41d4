import Foundation
import GRDB

/// A photo analysed through `POST /v1/detect` (table `photo`): its name, size and how much
/// was found (the full results went back to the caller). `GET /v1/photos` lists it as it is
/// (`analysedAt` in ISO 8601).
struct PhotoEntry: Codable, Sendable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "photo"

    var name: String
    var analysedAt: Date
    var width: Int
    var height: Int
    var barcodes: Int
    var faces: Int
    var textLines: Int
}
