import Foundation
import GRDB

/// A code first seen in a live session (table `code_sighting`): one row per session,
/// symbology and payload, however often it was seen after.
struct CodeSighting: Codable, Sendable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "code_sighting"

    var session: String
    var symbology: String
    var payload: String?
    var payloadBase64: String
    var firstSeen: Date

    /// The JSON `GET /v1/codes` lists.
    struct Listing: Encodable {
        var session: String
        var symbology: String
        var payload: String?
        var payloadBase64: String
        var firstSeen: String
    }

    var listing: Listing {
        Listing(
            session: session, symbology: symbology, payload: payload, payloadBase64: payloadBase64, firstSeen: firstSeen.ISO8601Format())
    }
}
