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
    func lowered(to request: LiveCommand.Record) -> RecordingLimits {
        var limits = self
        if let seconds = request.maxSeconds, seconds > 0 { limits.maximumDuration = min(seconds, maximumDuration) }
        if let megabytes = request.maxMegabytes, megabytes > 0 {
            limits.maximumFileSize = min(Int64(megabytes * 1_048_576), maximumFileSize)
        }
        return limits
    }

    func validate() throws {
        guard maximumDuration > 0, maximumDuration.isFinite, maximumFileSize > 0, minimumFreeDiskSpace >= 0 else {
            throw KameraError.invalidArgument("recording limits must be positive")
        }
    }
}
