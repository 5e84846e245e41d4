import Foundation
import KameraCore

/// Why a recording ended.
public enum RecordingStopReason: String, Sendable, Codable {
    /// The caller finished it.
    case finished
    case maximumDurationReached
    case maximumFileSizeReached
    case diskSpaceLow
    /// A write failed because the disk is full; the movie holds what was written before.
    case diskFull
    /// A write failed for another reason (an I/O error, a vanished directory); the movie holds
    /// what was written before.
    case writeFailed
}
