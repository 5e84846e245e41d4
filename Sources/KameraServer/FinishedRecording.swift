import Kamera

/// A recording that has just ended (the page or an API call stopped it, a limit was hit, the
/// disk filled, the connection closed or the camera went away), before its library entry is
/// completed.
struct FinishedRecording: Sendable {
    enum Outcome: Sendable {
        /// A movie of `summary`'s frames at `width`×`height`.
        case recorded(width: Int, height: Int, summary: RecordingSummary)
        /// It ended before its first frame was written; nothing is kept.
        case nothing
    }

    var id: String
    var outcome: Outcome
    var reason: RecordingEndReason
}
