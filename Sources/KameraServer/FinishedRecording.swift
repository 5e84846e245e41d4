import Kamera

/// A recording that has just ended (the page or an API call stopped it, a limit was hit, the
/// connection closed or the camera went away), before its library entry is completed.
struct FinishedRecording: Sendable {
    var id: String
    var width: Int
    var height: Int
    /// nil when it ended before its first frame (nothing was written).
    var summary: RecordingSummary?
}
