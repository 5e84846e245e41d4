import Kamera

/// The seeds' recording limits (AVCaptureMovieFileOutput's maxRecordedDuration,
/// maxRecordedFileSize and minFreeDiskSpaceLimit): the server's ceiling, which a page may
/// lower for one recording but not raise.
public struct RecordingLimits: Sendable, Codable, Equatable {
    /// Seconds.
    public var maximumDuration: Double
    /// Bytes.
    public var maximumFileSize: Int64
    /// Bytes that must stay free on the data directory's disk.
    public var minimumFreeDiskSpace: Int64

    public init(maximumDuration: Double = 300, maximumFileSize: Int64 = 500 << 20, minimumFreeDiskSpace: Int64 = 256 << 20) {
        self.maximumDuration = maximumDuration
        self.maximumFileSize = maximumFileSize
        self.minimumFreeDiskSpace = minimumFreeDiskSpace
    }

    /// These limits lowered to what `request` asks for (never raised past them).
    /// - Throws: `KameraError.invalidArgument` when the request's limits are not positive numbers.
    func lowered(to request: RecordingRequest) throws -> RecordingLimits {
        try request.validate()
        var limits = self
        if let seconds = request.maxSeconds { limits.maximumDuration = min(seconds, maximumDuration) }
        if let megabytes = request.maxMegabytes {
            // Compared as Doubles first: a huge request must not trap converting to Int64.
            let bytes = min(megabytes * 1_048_576, Double(maximumFileSize))
            limits.maximumFileSize = max(1, Int64(bytes))
        }
        return limits
    }

    func validate() throws {
        guard maximumDuration > 0, maximumDuration.isFinite, maximumFileSize > 0, minimumFreeDiskSpace >= 0 else {
            throw KameraError.invalidArgument("recording limits must be positive")
        }
    }
}
