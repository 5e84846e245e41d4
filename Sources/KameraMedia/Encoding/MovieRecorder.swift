import CFFmpeg
import Foundation
import KameraCore

/// Records frames to an H.264 QuickTime (.mov) or MPEG-4 (.mp4) movie, fragmented so that a
/// crash, a kill or a power cut leaves a playable file — the point of seed 000 — with the
/// limits AVCaptureFileOutput has. Not thread-safe: append from one task.
public final class MovieRecorder {
    public let settings: RecordingSettings
    /// Where the movie is written.
    public let url: URL
    /// Seconds recorded so far (AVCaptureFileOutput.recordedDuration).
    public private(set) var recordedDuration: Double = 0
    /// Frames appended so far.
    public private(set) var recordedFrames = 0
    /// Why recording stopped, once it has.
    public private(set) var stopReason: RecordingStopReason?

    private var encoder: VideoEncoder?
    private var muxer: MovieMuxer?
    private var firstTime: Double?
    private var lastPTS: Int64 = -1
    private var pendingBytes: Int64 = 0
    private var finished = false
    private var audio: AudioPassthrough?

    /// Bytes on disk so far (AVCaptureFileOutput.recordedFileSize).
    public var recordedFileSize: Int64 { muxer?.writtenBytes ?? 0 }

    /// A unique output location in a new temporary folder: `kamera.XXXXXX/kamera_movie.mov`.
    public static func defaultURL() throws -> URL {
        var template = Array(URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("kamera.XXXXXX").path.utf8CString)
        guard let made = mkdtemp(&template) else {
            throw KameraError.writeFailed(path: NSTemporaryDirectory(), reason: "cannot create a temporary folder")
        }
        return URL(fileURLWithPath: String(cString: made)).appendingPathComponent("kamera_movie.mov")
    }

    /// The containers a recording can be written as, by file extension: MPEG-4 or QuickTime.
    public static let containerExtensions = ["mp4": "mp4", "m4v": "mp4", "mov": "mov"]

    /// Throws `invalidArgument` unless `url`'s extension names a container Kamera writes
    /// (writing MP4 data into `movie.avi` would make a file no player reads as what it says).
    public static func validateContainer(of url: URL) throws {
        guard containerExtensions[url.pathExtension.lowercased()] != nil else {
            let given = url.pathExtension.isEmpty ? "no extension" : ".\(url.pathExtension)"
            throw KameraError.invalidArgument(
                "\(url.lastPathComponent): recordings are MPEG-4 (.mp4, .m4v) or QuickTime (.mov) movies, not \(given)")
        }
    }

    /// Starts a recording at `url` (default: ``defaultURL()``): .mp4/.m4v give MPEG-4, .mov QuickTime.
    /// - Parameter audioSource: a movie whose first audio stream is copied into the recording
    ///   untouched, in step with the frames (their times are that movie's times); a movie
    ///   without sound adds none.
    /// - Throws: `invalidArgument` for settings out of range; `writeFailed`/`diskFull` when the
    ///   file cannot be created; `unsupportedFormat` when the container cannot hold the
    ///   source's audio codec as it is.
    public init(url: URL? = nil, settings: RecordingSettings, audioSource: String? = nil) throws {
        try FFmpegSetup.load()
        try settings.validate()
        if let url { try Self.validateContainer(of: url) }
        self.settings = settings
        self.url = try url ?? Self.defaultURL()
        let path = self.url.path
        do {
            // A key frame opens every fragment, so each fragment decodes on its own.
            let encoder = try VideoEncoder(
                width: settings.width, height: settings.height, frameRate: settings.frameRate,
                keyFrameInterval: settings.fragmentInterval > 0 ? settings.fragmentInterval : 2, preset: settings.preset,
                quality: settings.quality, globalHeader: MovieMuxer.wantsGlobalHeader(self.url), path: path)
            guard let parameters = encoder.parameters else { throw KameraError.writeFailed(path: path, reason: "out of memory") }
            let muxer = try MovieMuxer(url: self.url, video: parameters, rotation: settings.rotation)
            (self.encoder, self.muxer) = (encoder, muxer)
            if let audioSource, let audio = try AudioPassthrough(path: audioSource), let context = muxer.context {
                try audio.addStream(to: context, outputPath: path)
                self.audio = audio
            }
            // Some audio (AC-3) needs its first packets before the header can be written.
            try muxer.begin(fragmentInterval: settings.fragmentInterval, waitsForAudio: audio != nil)
        } catch {
            release()
            throw error
        }
        // Too little room already: the recording starts stopped, so it ends as `diskSpaceLow`
        // (with nothing recorded) like one that runs out of room, rather than as an error of
        // its own kind.
        if let minimum = settings.minimumFreeDiskSpace, let free = Self.freeSpace(at: self.url), free < minimum {
            stopReason = .diskSpaceLow
        }
    }

    deinit {
        if !finished { _ = try? finish() }
        release()
    }

    /// Appends a frame shown at `time` seconds (any origin; the first frame starts the movie).
    /// Returns false once a limit has stopped the recording (see ``stopReason``); the file is
    /// then finished and complete.
    @discardableResult
    public func append(_ image: PixelBuffer, at time: Double) throws -> Bool {
        guard stopReason == nil, !finished else { return false }
        guard image.width == settings.width, image.height == settings.height else {
            throw KameraError.invalidArgument("frame is \(image.width)×\(image.height), the recording \(settings.width)×\(settings.height)")
        }
        let start = firstTime ?? time
        firstTime = start
        let elapsed = time - start
        if let limit = settings.maximumDuration, elapsed >= limit - 0.5 / settings.frameRate {
            try stop(.maximumDurationReached)
            return false
        }
        if let limit = settings.maximumFileSize {
            // What the file will be once the fragment in progress is written, with room for
            // one more frame and the trailer.
            let perFrame = recordedFrames > 0 ? (recordedFileSize + pendingBytes) / Int64(recordedFrames) : 0
            if recordedFileSize + pendingBytes + 2 * perFrame + 4096 >= limit {
                try stop(.maximumFileSizeReached)
                return false
            }
        }
        if let minimum = settings.minimumFreeDiskSpace, recordedFrames % 5 == 0, let free = Self.freeSpace(at: url), free < minimum {
            try stop(.diskSpaceLow)
            return false
        }
        guard let encoder, let context = muxer?.context else { return false }
        try audio?.write(upTo: time, origin: start, into: context, outputPath: url.path)
        var pts = Int64((elapsed * 1000).rounded())
        if pts <= lastPTS { pts = lastPTS + 1 }
        lastPTS = pts
        try encoder.encode(image, pts: pts, handle: write)
        recordedFrames += 1
        recordedDuration = elapsed + 1 / settings.frameRate
        return true
    }

    /// Ends the recording: flushes the encoder, writes what remains and closes the file.
    /// A recording that got no frame at all (a limit below the first frame, a source that
    /// delivered nothing) is removed and reported as `nothingRecorded`, like
    /// AVFoundation's `AVError.noDataCaptured`: an empty movie is not a result.
    public func finish() throws -> RecordingSummary {
        if !finished { try stop(.finished) }
        if recordedFrames == 0 {
            try? FileManager.default.removeItem(at: url)
            let why =
                switch stopReason ?? .finished {
                case .maximumFileSizeReached:
                    "the first frame alone is larger than the size limit of \(settings.maximumFileSize ?? 0) bytes"
                case .maximumDurationReached: "the duration limit ended it before the first frame"
                case .diskSpaceLow: "the disk fell below the free-space minimum before the first frame"
                case .diskFull: "the disk was full before the first frame"
                case .writeFailed: "writing failed before the first frame"
                case .finished: "the source delivered no frames"
                }
            throw KameraError.nothingRecorded(path: url.path, reason: why)
        }
        return RecordingSummary(
            path: url.path, duration: recordedDuration, frames: recordedFrames,
            bytes: (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int64) ?? 0,
            stopReason: stopReason ?? .finished)
    }

    /// Ends a recording after a failed write (`error`, from `append`): the file is closed as
    /// it is — fragmented, so playable up to its last complete fragment — and its summary
    /// returned, with `diskFull` or `writeFailed` as the stop reason; nil (and no file) when
    /// no frame was written. Never throws: the disk has already failed.
    public func conclude(after error: KameraError) -> RecordingSummary? {
        // A failed stop (the encoder's last packets did not fit) has set `finished` already.
        let trailerPending = !finished
        finished = true
        stopReason = error.code == .diskFull ? .diskFull : .writeFailed
        muxer?.abandon(writingTrailer: trailerPending)
        guard recordedFrames > 0 else {
            try? FileManager.default.removeItem(at: url)
            return nil
        }
        return RecordingSummary(
            path: url.path, duration: recordedDuration, frames: recordedFrames,
            bytes: (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int64) ?? 0,
            stopReason: stopReason ?? .writeFailed)
    }

    private func stop(_ reason: RecordingStopReason) throws {
        guard !finished else { return }
        finished = true
        stopReason = stopReason ?? reason
        guard let encoder, let muxer, let context = muxer.context else { return }
        try encoder.encode(nil, pts: 0, handle: write)
        if let start = firstTime {
            // The sound up to the end of the last frame, no further (a duration limit cuts both).
            try audio?.write(upTo: start + recordedDuration, origin: start, into: context, outputPath: url.path)
        }
        try muxer.finish()
    }

    /// Writes one encoded packet; what the fragment in progress holds counts towards the size limit.
    private func write(_ packet: UnsafeMutablePointer<AVPacket>) throws {
        if packet.pointee.flags & AV_PKT_FLAG_KEY != 0 { pendingBytes = 0 }
        pendingBytes += Int64(packet.pointee.size)
        try muxer?.write(packet)
    }

    private func release() {
        encoder = nil
        muxer = nil
    }

    /// Free bytes on the volume holding `url`.
    static func freeSpace(at url: URL) -> Int64? {
        FreeDiskSpace.bytes(onVolumeOf: url.deletingLastPathComponent().path)
    }
}
