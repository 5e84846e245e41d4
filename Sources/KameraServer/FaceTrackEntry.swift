import Foundation
import GRDB
import Kamera
import KameraReports

/// A face followed in a live session (table `face_track`): when its ID appeared and was lost.
struct FaceTrackEntry: Codable, Sendable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "face_track"

    var session: String
    var faceID: Int
    var appearedAt: Date
    var lostAt: Date?

    /// The JSON `GET /v1/face-tracks` lists.
    struct Listing: Encodable {
        var session: String
        var faceID: Int
        var appearedAt: String
        /// Still in view (or the session ended without losing it) when null.
        @Nullable var lostAt: String?
    }

    var listing: Listing {
        Listing(session: session, faceID: faceID, appearedAt: appearedAt.ISO8601Format(), lostAt: lostAt?.ISO8601Format())
    }
}
