import Kamera

/// Why a server recording ended, as the library stores it and `GET /v1/recordings` lists it.
enum RecordingEndReason: String, Codable, Sendable, CaseIterable {
    /// The page or an API call stopped it.
    case finished
    case maximumDurationReached
    case maximumFileSizeReached
    /// The disk fell below the server's free-space minimum.
    case diskSpaceLow
    /// A write failed because the disk is full; the movie holds what was written before.
    case diskFull
    /// A write failed for another reason; the movie holds what was written before.
    case writeFailed
    /// The page recording from its camera went away.
    case disconnected
    /// The server camera stopped delivering frames.
    case cameraLost
    /// The server was stopped (SIGINT, SIGTERM) while recording.
    case serverStopped
    /// The server died while recording; the movie was recovered at the next start.
    case interrupted
    /// An event clip's post-roll ran out: the event was no longer seen.
    case eventEnded

    init(_ reason: RecordingStopReason) {
        switch reason {
        case .finished: self = .finished
        case .maximumDurationReached: self = .maximumDurationReached
        case .maximumFileSizeReached: self = .maximumFileSizeReached
        case .diskSpaceLow: self = .diskSpaceLow
        case .diskFull: self = .diskFull
        case .writeFailed: self = .writeFailed
        }
    }

    /// Whether the disk ended it (full or below the minimum).
    var isDiskProblem: Bool { self == .diskFull || self == .diskSpaceLow }
}
