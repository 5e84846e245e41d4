import Foundation
import GRDB

/// A code first seen in a live session (table `code_sighting`): one row per session,
/// symbology and payload, however often it was seen after. `GET /v1/codes` lists it as it is
/// (`firstSeen` in ISO 8601).
struct CodeSighting: Codable, Sendable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "code_sighting"

    var session: String
    var symbology: String
    var payload: String?
    var payloadBase64: String
    var firstSeen: Date
}
