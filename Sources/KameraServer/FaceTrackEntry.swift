import Foundation
import GRDB

/// A face followed in a live session (table `face_track`): when its ID appeared and was lost.
struct FaceTrackEntry: Codable, Sendable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "face_track"

    var session: String
    var faceID: Int
    var appearedAt: Date
    var lostAt: Date?
}
