import Foundation
import Kamera
import KameraReports

/// A text message the server sends on a live socket, besides each analysed frame's
/// `LiveFrameResult`: a frame that will not be analysed, an error, or a recording that ended.
enum LiveMessage: Encodable, Sendable {
    /// `{"id":N,"skipped":true,"dropped":total}`: said for every frame replaced by a newer one,
    /// so a client that keeps a bounded number of frames in flight never waits for an answer
    /// that cannot come.
    case skipped(id: UInt32, dropped: Int)
    /// `{"id":N,"error":{…}}` (no id when not about a frame).
    case error(id: UInt32?, APIError)
    /// `{"recording":{…}}`: a recording ended, as `GET /v1/recordings` lists it.
    case recording(RecordingEntry.Listing)

    private struct Skipped: Encodable {
        var id: UInt32
        var skipped = true
        var dropped: Int
    }

    private struct Failure: Encodable {
        var id: UInt32?
        var error: DetectionReport.FileError
    }

    private struct Recording: Encodable {
        var recording: RecordingEntry.Listing
    }

    func encode(to encoder: any Encoder) throws {
        switch self {
        case .skipped(let id, let dropped): try Skipped(id: id, dropped: dropped).encode(to: encoder)
        case .error(let id, let error): try Failure(id: id, error: error.error).encode(to: encoder)
        case .recording(let listing): try Recording(recording: listing).encode(to: encoder)
        }
    }

    /// The message as one line of JSON.
    func text() throws -> String {
        try JSONValueEncoder.encode(self).compact()
    }

    /// The message for a recording that ended: its entry, or why nothing was kept.
    static func ended(_ entry: RecordingEntry?, reason: RecordingEndReason) -> LiveMessage {
        if let entry { return .recording(entry.listing) }
        return .error(id: nil, .nothingRecorded(reason))
    }
}
