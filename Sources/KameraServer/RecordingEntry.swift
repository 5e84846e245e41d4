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
    /// For an event clip, what started it; nil for a recording someone asked for.
    var event: CameraEvent?
    /// For an event clip, seconds from its start to the frame the event was seen on.
    var eventOffset: Double?

    /// A new recording from `source`, listed as being written before its first frame.
    /// - Parameter event: what started it, for an event clip.
    static func started(source: String, event: CameraEvent? = nil) -> RecordingEntry {
        RecordingEntry(
            id: UUID().uuidString, startedAt: Date(), width: 0, height: 0, duration: 0, frames: 0, bytes: 0, stopReason: nil,
            complete: false, hasThumbnail: false, source: source, event: event)
    }

    var movieName: String { "\(id).mp4" }
    var thumbnailName: String { "\(id).thumbnail.png" }

    /// The JSON `GET /v1/recordings` lists: the entry as it is (`startedAt` in ISO 8601,
    /// `duration` to the millisecond) and where its movie and thumbnail are served.
    struct Listing: Encodable {
        var entry: RecordingEntry

        private enum Keys: String, CodingKey { case duration, movie, thumbnail }

        func encode(to encoder: any Encoder) throws {
            try entry.encode(to: encoder)
            var values = encoder.container(keyedBy: Keys.self)
            try values.encode((entry.duration * 1000).rounded() / 1000, forKey: .duration)
            try values.encode("/v1/recordings/\(entry.id)/movie", forKey: .movie)
            if entry.hasThumbnail { try values.encode("/v1/recordings/\(entry.id)/thumbnail", forKey: .thumbnail) }
        }
    }

    var listing: Listing { Listing(entry: self) }
}
