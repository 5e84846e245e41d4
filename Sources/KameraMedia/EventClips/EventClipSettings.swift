import Foundation
import KameraCore

/// How `EventClipRecorder` encodes a stream and cuts clips from it.
public struct EventClipSettings: Sendable {
    /// Frame size in pixels (even numbers, as H.264 with 4:2:0 chroma needs).
    public var width: Int
    public var height: Int
    /// Frames per second the source delivers.
    public var frameRate: Double
    /// Seconds of video a clip has before the event (at least; it starts on a key frame).
    public var preRoll: Double
    /// Seconds a clip goes on after the event was last noted.
    public var postRoll: Double
    /// A clip ends on the last key frame before it would be longer than this, and the next
    /// one carries on from that key frame.
    public var maximumDuration: Double
    /// Seconds between key frames: a clip can start only on one, and a crash loses at most
    /// the fragment since the last one.
    public var keyFrameInterval: Double
    /// No clip starts, and an open clip ends, when the volume has less free space than this.
    public var minimumFreeDiskSpace: Int64?
    /// Memory the pre-roll may take; at high bit rates the pre-roll is shortened to fit.
    public var maximumBufferBytes: Int
    /// x264 speed preset and constant rate factor, as in `RecordingSettings`.
    public var preset: String
    public var quality: Int
    /// Clockwise rotation stored as metadata (0, 90, 180, 270).
    public var rotation: Int

    /// - Parameters:
    ///   - width: frame width in pixels (even).
    ///   - height: frame height in pixels (even).
    ///   - frameRate: frames per second the source delivers.
    ///   - preRoll: seconds before the event.
    ///   - postRoll: seconds after the event was last noted.
    ///   - maximumDuration: seconds a clip may last.
    public init(
        width: Int, height: Int, frameRate: Double = 30, preRoll: Double = 5, postRoll: Double = 5, maximumDuration: Double = 600
    ) {
        (self.width, self.height, self.frameRate) = (width, height, frameRate)
        (self.preRoll, self.postRoll, self.maximumDuration) = (preRoll, postRoll, maximumDuration)
        keyFrameInterval = 1
        minimumFreeDiskSpace = nil
        maximumBufferBytes = 64 << 20
        preset = "veryfast"
        quality = 23
        rotation = 0
    }

    /// Throws `invalidArgument` for settings no clip can honour (sizes, rates and seconds out
    /// of range, non-finite numbers).
    public func validate() throws {
        try RecordingSettings(
            width: width, height: height, frameRate: frameRate, fragmentInterval: keyFrameInterval, rotation: rotation, preset: preset,
            quality: quality
        ).validate()
        guard keyFrameInterval > 0 else { throw KameraError.invalidArgument("key-frame interval must be above 0 seconds") }
        for (name, value, limit) in [
            ("pre-roll", preRoll, 60.0), ("post-roll", postRoll, 600), ("maximum duration", maximumDuration, 86400),
        ] {
            guard value.isFinite, value >= 0, value <= limit else {
                throw KameraError.invalidArgument("\(name) must be 0…\(Int(limit)) seconds, not \(value)")
            }
        }
        // Clips are cut on key frames: a clip must have room for two.
        guard maximumDuration >= 2 * keyFrameInterval else {
            throw KameraError.invalidArgument(
                "a clip's maximum duration must be at least two key-frame intervals (\(2 * keyFrameInterval) s)")
        }
        guard maximumBufferBytes >= 1 << 20 else { throw KameraError.invalidArgument("the pre-roll buffer needs at least 1 MiB") }
        if let minimumFreeDiskSpace, minimumFreeDiskSpace < 0 {
            throw KameraError.invalidArgument("minimum free disk space must not be negative, not \(minimumFreeDiskSpace)")
        }
    }
}
