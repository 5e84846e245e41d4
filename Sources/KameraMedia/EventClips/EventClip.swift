import Foundation

/// A clip `EventClipRecorder` wrote: where, which stretch of the source it holds (in the
/// source's seconds, as frames were appended), and why it ended.
public struct EventClip: Sendable {
    public var url: URL
    /// The source time of the clip's first frame.
    public var startTime: Double
    /// The source time of the event that opened the clip.
    public var eventTime: Double
    /// Seconds of video.
    public var duration: Double
    public var frames: Int
    public var bytes: Int64
    public var width: Int
    public var height: Int
    /// `finished` (the post-roll ran out, or the recorder finished), `maximumDurationReached`,
    /// `diskSpaceLow`, `diskFull` or `writeFailed` (the file holds what was written before).
    public var stopReason: RecordingStopReason

    /// Seconds from the clip's start to the event.
    public var eventOffset: Double { eventTime - startTime }

    /// The clip as a recording's summary.
    public var summary: RecordingSummary {
        RecordingSummary(path: url.path, duration: duration, frames: frames, bytes: bytes, stopReason: stopReason)
    }
}
