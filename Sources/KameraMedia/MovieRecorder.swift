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

    private var formatContext: UnsafeMutablePointer<AVFormatContext>?
    private var codecContext: UnsafeMutablePointer<AVCodecContext>?
    private var stream: UnsafeMutablePointer<AVStream>?
    private var frame: UnsafeMutablePointer<AVFrame>?
    private var packet: UnsafeMutablePointer<AVPacket>?
    private var scaler: OpaquePointer?
    private var scalerSource: PixelFormat?
    private var firstTime: Double?
    private var lastPTS: Int64 = -1
    private var pendingBytes: Int64 = 0
    private var finished = false
    private var audio: AudioPassthrough?

    /// Bytes on disk so far (AVCaptureFileOutput.recordedFileSize).
    public var recordedFileSize: Int64 {
        guard let io = formatContext?.pointee.pb else { return 0 }
        return avio_tell(io)
    }

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
        let muxer = Self.containerExtensions[self.url.pathExtension.lowercased()] ?? "mov"
        var context: UnsafeMutablePointer<AVFormatContext>?
        guard avformat_alloc_output_context2(&context, nil, muxer, path) >= 0, let context else {
            throw KameraError.writeFailed(path: path, reason: "cannot create a \(muxer) muxer")
        }
        formatContext = context
        do {
            try openEncoder(context)
            if let audioSource, let audio = try AudioPassthrough(path: audioSource) {
                try audio.addStream(to: context, outputPath: path)
                self.audio = audio
            }
            try openFile(context, path: path)
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

    private func openEncoder(_ context: UnsafeMutablePointer<AVFormatContext>) throws {
        guard let encoder = avcodec_find_encoder_by_name("libx264") ?? avcodec_find_encoder(AV_CODEC_ID_H264) else {
            throw KameraError.missingResource(name: "H.264 encoder", hint: "install libavcodec59 with libx264 (Debian's FFmpeg has it)")
        }
        guard let codec = avcodec_alloc_context3(encoder), let stream = avformat_new_stream(context, nil) else {
            throw KameraError.writeFailed(path: url.path, reason: "out of memory")
        }
        codecContext = codec
        self.stream = stream
        codec.pointee.width = Int32(settings.width)
        codec.pointee.height = Int32(settings.height)
        codec.pointee.pix_fmt = AV_PIX_FMT_YUV420P
        // Millisecond timestamps: sources deliver frames at their own times.
        codec.pointee.time_base = AVRational(num: 1, den: 1000)
        codec.pointee.framerate = av_d2q(settings.frameRate, 1000)
        // A key frame opens every fragment, so each fragment decodes on its own.
        let interval = settings.fragmentInterval > 0 ? settings.fragmentInterval : 2
        codec.pointee.gop_size = Int32(max(1, (settings.frameRate * interval).rounded()))
        codec.pointee.max_b_frames = 0
        codec.pointee.thread_count = 0
        if context.pointee.oformat.pointee.flags & AVFMT_GLOBALHEADER != 0 {
            codec.pointee.flags |= kamera_codec_flag_global_header()
        }
        av_opt_set(codec.pointee.priv_data, "preset", settings.preset, 0)
        av_opt_set(codec.pointee.priv_data, "crf", String(settings.quality), 0)
        // No look-ahead: frames reach the file (and survive a crash) as soon as they are encoded.
        av_opt_set(codec.pointee.priv_data, "tune", "zerolatency", 0)
        let status = avcodec_open2(codec, encoder, nil)
        guard status >= 0 else {
            throw KameraError.writeFailed(path: url.path, reason: "cannot open the H.264 encoder: \(ffmpegMessage(status))")
        }
        avcodec_parameters_from_context(stream.pointee.codecpar, codec)
        stream.pointee.time_base = codec.pointee.time_base
        if settings.rotation != 0, let side = av_stream_new_side_data(stream, AV_PKT_DATA_DISPLAYMATRIX, 9 * 4) {
            // av_display_rotation_set takes the clockwise angle (av_display_rotation_get returns
            // it counter-clockwise, which MovieReader turns back into clockwise degrees).
            av_display_rotation_set(UnsafeMutableRawPointer(side).assumingMemoryBound(to: Int32.self), Double(settings.rotation))
        }
        frame = av_frame_alloc()
        packet = av_packet_alloc()
        guard let frame else { throw KameraError.writeFailed(path: url.path, reason: "out of memory") }
        frame.pointee.format = AV_PIX_FMT_YUV420P.rawValue
        frame.pointee.width = codec.pointee.width
        frame.pointee.height = codec.pointee.height
        guard av_frame_get_buffer(frame, 0) >= 0 else { throw KameraError.writeFailed(path: url.path, reason: "out of memory") }
    }

    private func openFile(_ context: UnsafeMutablePointer<AVFormatContext>, path: String) throws {
        var status = avio_open(&context.pointee.pb, path, AVIO_FLAG_WRITE)
        guard status >= 0 else { throw writeError(status) }
        var options: OpaquePointer?
        if settings.fragmentInterval > 0 {
            // An empty moov up front and self-contained fragments: every completed fragment is
            // playable without the index a plain movie writes only at the end.
            // Some audio (AC-3) needs its first packets before the header can be written.
            let delay = audio != nil ? "+delay_moov" : ""
            av_dict_set(&options, "movflags", "frag_keyframe+empty_moov+default_base_moof" + delay, 0)
            av_dict_set(&options, "frag_duration", String(Int64(settings.fragmentInterval * 1_000_000)), 0)
        }
        status = avformat_write_header(context, &options)
        av_dict_free(&options)
        guard status >= 0 else { throw writeError(status, "cannot write the movie header") }
        try flush()
    }

    /// Pushes buffered bytes to the file and reports a write that failed (FFmpeg keeps a
    /// failed buffered write's error on the I/O context, not in a return value).
    private func flush() throws {
        guard let io = formatContext?.pointee.pb else { return }
        avio_flush(io)
        if io.pointee.error < 0 { throw writeError(io.pointee.error) }
    }

    /// A failed write as `diskFull` or `writeFailed`.
    private func writeError(_ status: Int32, _ what: String? = nil) -> KameraError {
        .writeFailed(path: url.path, errno: -status, reason: [what, ffmpegMessage(status)].compactMap { $0 }.joined(separator: ": "))
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
        guard let codec = codecContext, let frame, let context = formatContext else { return false }
        try audio?.write(upTo: time, origin: start, into: context, outputPath: url.path)
        var pts = Int64((elapsed * 1000).rounded())
        if pts <= lastPTS { pts = lastPTS + 1 }
        lastPTS = pts
        try fill(frame, from: image)
        frame.pointee.pts = pts
        try send(frame, codec)
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
        if let context = formatContext, context.pointee.pb != nil {
            if trailerPending { _ = av_write_trailer(context) }
            avio_closep(&context.pointee.pb)
        }
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
        guard let codec = codecContext, let context = formatContext else { return }
        try send(nil, codec)
        if let start = firstTime {
            // The sound up to the end of the last frame, no further (a duration limit cuts both).
            try audio?.write(upTo: start + recordedDuration, origin: start, into: context, outputPath: url.path)
        }
        let status = av_write_trailer(context)
        avio_closep(&context.pointee.pb)
        guard status >= 0 else { throw writeError(status, "cannot finish the movie") }
    }

    private func send(_ frame: UnsafeMutablePointer<AVFrame>?, _ codec: UnsafeMutablePointer<AVCodecContext>) throws {
        guard let packet, let context = formatContext, let stream else { return }
        var status = avcodec_send_frame(codec, frame)
        guard status >= 0 else { throw KameraError.writeFailed(path: url.path, reason: "encoder: \(ffmpegMessage(status))") }
        while true {
            status = avcodec_receive_packet(codec, packet)
            if status == kamera_eagain() || status == kamera_averror_eof() { break }
            guard status >= 0 else { throw KameraError.writeFailed(path: url.path, reason: "encoder: \(ffmpegMessage(status))") }
            av_packet_rescale_ts(packet, codec.pointee.time_base, stream.pointee.time_base)
            packet.pointee.stream_index = stream.pointee.index
            if packet.pointee.duration == 0 {
                packet.pointee.duration = av_rescale_q(
                    Int64((1000 / settings.frameRate).rounded()), AVRational(num: 1, den: 1000), stream.pointee.time_base)
            }
            let isKey = packet.pointee.flags & AV_PKT_FLAG_KEY != 0
            if isKey { pendingBytes = 0 }
            pendingBytes += Int64(packet.pointee.size)
            status = av_interleaved_write_frame(context, packet)
            guard status >= 0 else { throw writeError(status) }
            // Push completed fragments to the file now rather than when a buffer fills.
            try flush()
        }
    }

    private func fill(_ frame: UnsafeMutablePointer<AVFrame>, from image: PixelBuffer) throws {
        let source: AVPixelFormat =
            switch image.format {
            case .gray8: AV_PIX_FMT_GRAY8
            case .rgb8: AV_PIX_FMT_RGB24
            case .rgba8: AV_PIX_FMT_RGBA
            case .bgra8: AV_PIX_FMT_BGRA
            }
        let w = Int32(image.width), h = Int32(image.height)
        scaler = sws_getCachedContext(scaler, w, h, source, w, h, AV_PIX_FMT_YUV420P, SWS_BILINEAR, nil, nil, nil)
        guard let scaler, av_frame_make_writable(frame) >= 0 else {
            throw KameraError.writeFailed(path: url.path, reason: "cannot convert frame")
        }
        image.bytes.withUnsafeBufferPointer { pixels in
            var planes: [UnsafePointer<UInt8>?] = [pixels.baseAddress, nil, nil, nil]
            var strides: [Int32] = [Int32(image.bytesPerRow), 0, 0, 0]
            withUnsafeMutablePointer(to: &frame.pointee.data) { dataTuple in
                dataTuple.withMemoryRebound(to: UnsafeMutablePointer<UInt8>?.self, capacity: 8) { targetPlanes in
                    withUnsafeMutablePointer(to: &frame.pointee.linesize) { linesTuple in
                        linesTuple.withMemoryRebound(to: Int32.self, capacity: 8) { targetStrides in
                            _ = sws_scale(scaler, &planes, &strides, 0, h, targetPlanes, targetStrides)
                        }
                    }
                }
            }
        }
    }

    private func release() {
        sws_freeContext(scaler)
        scaler = nil
        av_frame_free(&frame)
        av_packet_free(&packet)
        avcodec_free_context(&codecContext)
        if let context = formatContext {
            if context.pointee.pb != nil { avio_closep(&context.pointee.pb) }
            avformat_free_context(context)
            formatContext = nil
        }
    }

    /// Free bytes on the volume holding `url`.
    static func freeSpace(at url: URL) -> Int64? {
        FreeDiskSpace.bytes(onVolumeOf: url.deletingLastPathComponent().path)
    }
}
