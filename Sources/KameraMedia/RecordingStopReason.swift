import Foundation
import KameraCore

/// Why a recording ended.
public enum RecordingStopReason: String, Sendable, Codable {
    /// The caller finished it.
    case finished
    case maximumDurationReached
    case maximumFileSizeReached
    case diskSpaceLow
}
