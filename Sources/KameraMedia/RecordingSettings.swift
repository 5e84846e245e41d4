import Foundation
import KameraCore

/// How a recording is encoded and when it stops, like AVCaptureMovieFileOutput's settings.
public struct RecordingSettings: Sendable {
    /// Frame size in pixels (even numbers; H.264 with 4:2:0 chroma needs them).
    public var width: Int
    public var height: Int
    /// Frames per second the source delivers.
    public var frameRate: Double
    /// Seconds per fragment: a crash loses at most the fragment in progress. 0 writes a plain
    /// (non-fragmented) movie whose index is only written at the end — lost on a crash.
    public var fragmentInterval: Double
    /// Stop after this many seconds (AVCaptureFileOutput.maxRecordedDuration).
    public var maximumDuration: Double?
    /// Stop before the file grows past this many bytes (maxRecordedFileSize).
    public var maximumFileSize: Int64?
    /// Stop when the volume has less free space than this (minFreeDiskSpaceLimit).
    public var minimumFreeDiskSpace: Int64?
    /// Clockwise rotation stored as metadata (0, 90, 180, 270), like videoOrientation.
    public var rotation: Int
    /// x264 speed preset: faster presets sustain higher resolutions in real time.
    public var preset: String
    /// Constant rate factor (lower is better quality, 18–28 is typical).
    public var quality: Int

    public init(
        width: Int, height: Int, frameRate: Double = 30, fragmentInterval: Double = 1, maximumDuration: Double? = nil,
        maximumFileSize: Int64? = nil, minimumFreeDiskSpace: Int64? = nil, rotation: Int = 0,
        preset: String = "veryfast", quality: Int = 23
    ) {
        self.width = width
        self.height = height
        self.frameRate = frameRate
        self.fragmentInterval = fragmentInterval
        self.maximumDuration = maximumDuration
        self.maximumFileSize = maximumFileSize
        self.minimumFreeDiskSpace = minimumFreeDiskSpace
        self.rotation = rotation
        self.preset = preset
        self.quality = quality
    }
}

extension RecordingSettings {
    /// Throws `invalidArgument` for settings no recording can honour: odd or absurd sizes,
    /// non-finite or non-positive rates and limits (a NaN duration would never stop).
    public func validate() throws {
        guard width > 0, height > 0, width % 2 == 0, height % 2 == 0, width <= 16384, height <= 16384 else {
            throw KameraError.invalidArgument("recording size \(width)×\(height) must be even and 2…16384 pixels per side")
        }
        guard [0, 90, 180, 270].contains(rotation) else {
            throw KameraError.invalidArgument("rotation must be 0, 90, 180 or 270, not \(rotation)")
        }
        guard frameRate.isFinite, frameRate > 0, frameRate <= 1000 else {
            throw KameraError.invalidArgument("frame rate must be a number above 0 and at most 1000, not \(frameRate)")
        }
        // At most an hour: the key-frame interval (frames) must fit the encoder's Int32.
        guard fragmentInterval.isFinite, fragmentInterval >= 0, fragmentInterval <= 3600 else {
            throw KameraError.invalidArgument(
                "fragment interval must be 0 (no fragments) or a positive number of seconds up to 3600, not \(fragmentInterval)")
        }
        if let maximumDuration, !(maximumDuration.isFinite && maximumDuration > 0) {
            throw KameraError.invalidArgument("maximum duration must be a positive number of seconds, not \(maximumDuration)")
        }
        if let maximumFileSize, maximumFileSize <= 0 {
            throw KameraError.invalidArgument("maximum file size must be a positive number of bytes, not \(maximumFileSize)")
        }
        if let minimumFreeDiskSpace, minimumFreeDiskSpace < 0 {
            throw KameraError.invalidArgument("minimum free disk space must not be negative, not \(minimumFreeDiskSpace)")
        }
        guard (0...51).contains(quality) else {
            throw KameraError.invalidArgument("quality (x264 CRF) must be 0…51, not \(quality)")
        }
    }
}
