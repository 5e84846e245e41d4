import Foundation
import KameraCore

/// What a finished recording produced.
public struct RecordingSummary: Sendable, Codable {
    public var path: String
    public var duration: Double
    public var frames: Int
    public var bytes: Int64
    public var stopReason: RecordingStopReason
}
