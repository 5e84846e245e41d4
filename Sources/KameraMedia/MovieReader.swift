import CFFmpeg
import Foundation
import KameraCore

/// Reads video frames with timestamps from files (MP4, MOV, MKV, AVI, WebM, …) and anything
/// else FFmpeg opens, decoded to `PixelBuffer`s, like AVAssetReader. Not thread-safe: use
/// one reader from one task at a time.
public final class MovieReader {
    /// Width of the decoded frames (before any rotation).
    public let width: Int
    /// Height of the decoded frames (before any rotation).
    public let height: Int
    /// Duration in seconds, when the container knows it.
    public let duration: Double?
    /// Average frame rate, when known.
    public let frameRate: Double?
    /// Clockwise rotation (0, 90, 180, 270) the stream's display matrix asks for, like a
    /// track's preferredTransform.
    public let rotation: Int
    /// The pixel format frames are delivered in.
    public let outputFormat: PixelFormat
    /// What was opened.
    public let source: String

    private var formatContext: UnsafeMutablePointer<AVFormatContext>?
    private var codecContext: UnsafeMutablePointer<AVCodecContext>?
    private var scaler: OpaquePointer?
    private let streamIndex: Int32
    private let timeBase: AVRational
    private var packet: UnsafeMutablePointer<AVPacket>?
    private var frame: UnsafeMutablePointer<AVFrame>?
    private var draining = false
    private var finished = false
    private var nextIndex = 0
    private var skipBefore: Double?

    /// Opens a V4L2 camera such as `/dev/video0` (see ``CameraDevice/discover(in:)``), in
    /// `format` when given (else the driver's current one).
    public convenience init(camera: CameraDevice, format: CameraDevice.Format? = nil, outputFormat: PixelFormat = .rgb8) throws {
        try self.init(
            path: camera.path, outputFormat: outputFormat, inputFormat: "video4linux2",
            options: format.map(CameraDevice.deviceOptions(for:)) ?? [:])
    }

    /// Opens `path` (a file, a URL FFmpeg understands) and its best video stream;
    /// `inputFormat` forces an FFmpeg demuxer or device ("video4linux2"), `options` are the
    /// demuxer's or device's options (`video_size`, `input_format`, `framerate`, …).
    public init(path: String, outputFormat: PixelFormat = .rgb8, inputFormat: String? = nil, options: [String: String] = [:]) throws {
        if inputFormat == nil { try FFmpegSetup.load() } else { try FFmpegSetup.loadDevices() }
        source = path
        self.outputFormat = outputFormat
        // FFmpeg's protocols (`pipe:0` is standard input, `https://…`) are not files.
        if !path.contains("://") && !path.hasPrefix("pipe:") && inputFormat == nil {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue else {
                throw KameraError.unreadableFile(path: path, reason: "no such file")
            }
            if let size = (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int, size == 0 {
                throw KameraError.emptyInput(path: path)
            }
        }
        var context: UnsafeMutablePointer<AVFormatContext>?
        let forced = inputFormat.flatMap { av_find_input_format($0) }
        if inputFormat != nil && forced == nil {
            throw KameraError.missingResource(name: "FFmpeg input format \(inputFormat!)", hint: "install libavdevice59")
        }
        var dictionary: OpaquePointer?
        for (key, value) in options { av_dict_set(&dictionary, key, value, 0) }
        var status = avformat_open_input(&context, path, forced, &dictionary)
        av_dict_free(&dictionary)
        guard status >= 0, let context else { throw KameraError.media(path, "cannot open", status) }
        formatContext = context
        status = avformat_find_stream_info(context, nil)
        guard status >= 0 else { avformat_close_input(&formatContext); throw KameraError.media(path, "cannot read stream info", status) }
        var decoder: UnsafePointer<AVCodec>?
        let index = av_find_best_stream(context, AVMEDIA_TYPE_VIDEO, -1, -1, &decoder, 0)
        guard index >= 0, let decoder, let stream = context.pointee.streams[Int(index)] else {
            avformat_close_input(&formatContext)
            throw KameraError.unsupportedFormat(path: path, detected: "no decodable video stream")
        }
        streamIndex = index
        timeBase = stream.pointee.time_base
        guard let codec = avcodec_alloc_context3(decoder) else {
            avformat_close_input(&formatContext)
            throw KameraError.media(path, "out of memory")
        }
        codecContext = codec
        avcodec_parameters_to_context(codec, stream.pointee.codecpar)
        codec.pointee.thread_count = 0  // FFmpeg picks a thread count for decoding
        status = avcodec_open2(codec, decoder, nil)
        guard status >= 0, codec.pointee.width > 0, codec.pointee.height > 0 else {
            avcodec_free_context(&codecContext)
            avformat_close_input(&formatContext)
            throw KameraError.media(path, "cannot open the decoder", status)
        }
        width = Int(codec.pointee.width)
        height = Int(codec.pointee.height)
        if context.pointee.duration > 0 {
            duration = Double(context.pointee.duration) / Double(AV_TIME_BASE)
        } else if stream.pointee.duration > 0 {
            duration = Double(stream.pointee.duration) * av_q2d(timeBase)
        } else {
            duration = nil
        }
        let rate = stream.pointee.avg_frame_rate
        frameRate = rate.den > 0 && rate.num > 0 ? av_q2d(rate) : nil
        var degrees = 0
        if let matrix = av_stream_get_side_data(stream, AV_PKT_DATA_DISPLAYMATRIX, nil) {
            let angle = av_display_rotation_get(UnsafeRawPointer(matrix).assumingMemoryBound(to: Int32.self))
            // FFmpeg gives the counter-clockwise angle that undoes the rotation.
            if angle.isFinite { degrees = ((Int((-angle).rounded()) % 360) + 360) % 360 }
        }
        rotation = degrees
        packet = av_packet_alloc()
        frame = av_frame_alloc()
    }

    deinit {
        sws_freeContext(scaler)
        av_packet_free(&packet)
        av_frame_free(&frame)
        avcodec_free_context(&codecContext)
        avformat_close_input(&formatContext)
    }

    /// The next frame, or nil at the end of the stream.
    public func nextFrame() throws -> VideoFrame? {
        guard let codec = codecContext, let frame, let packet, let context = formatContext else { return nil }
        while !finished {
            let received = avcodec_receive_frame(codec, frame)
            if received == 0 {
                defer { av_frame_unref(frame) }
                let pts =
                    frame.pointee.best_effort_timestamp != kamera_nopts_value() ? frame.pointee.best_effort_timestamp : frame.pointee.pts
                let time = pts == kamera_nopts_value() ? Double(nextIndex) / (frameRate ?? 30) : Double(pts) * av_q2d(timeBase)
                if let skipBefore, time + 1e-6 < skipBefore { continue }
                skipBefore = nil
                let buffer = try convert(frame)
                defer { nextIndex += 1 }
                return VideoFrame(pixelBuffer: buffer, time: time, index: nextIndex)
            }
            if received == kamera_averror_eof() { finished = true; break }
            guard received == kamera_eagain() else { throw KameraError.media(source, "cannot decode", received) }
            if draining { finished = true; break }
            // Feed the decoder the next packet of our stream.
            while true {
                let read = av_read_frame(context, packet)
                if read == kamera_averror_eof() {
                    draining = true
                    avcodec_send_packet(codec, nil)
                    break
                }
                guard read >= 0 else { throw KameraError.media(source, "cannot read", read) }
                defer { av_packet_unref(packet) }
                if packet.pointee.stream_index == streamIndex {
                    let sent = avcodec_send_packet(codec, packet)
                    // Damaged packets are skipped as players do; a stream with nothing decodable ends.
                    if sent < 0 && sent != kamera_eagain() && sent != kamera_averror_eof() { continue }
                    break
                }
            }
        }
        return nil
    }

    /// Moves to `seconds`. With `exact`, the next frame is the first at or after that time;
    /// otherwise the key frame before it (faster, like a tolerant AVAssetImageGenerator).
    public func seek(to seconds: Double, exact: Bool = true) throws {
        guard let context = formatContext, let codec = codecContext else { return }
        let target = Int64(seconds / av_q2d(timeBase))
        let status = av_seek_frame(context, streamIndex, target, AVSEEK_FLAG_BACKWARD)
        guard status >= 0 else { throw KameraError.media(source, "cannot seek to \(seconds) s", status) }
        avcodec_flush_buffers(codec)
        draining = false
        finished = false
        nextIndex = 0
        skipBefore = exact ? seconds : nil
    }

    private func convert(_ frame: UnsafeMutablePointer<AVFrame>) throws -> PixelBuffer {
        let target: AVPixelFormat =
            switch outputFormat {
            case .gray8: AV_PIX_FMT_GRAY8
            case .rgb8: AV_PIX_FMT_RGB24
            case .rgba8: AV_PIX_FMT_RGBA
            case .bgra8: AV_PIX_FMT_BGRA
            }
        let w = Int32(frame.pointee.width), h = Int32(frame.pointee.height)
        scaler = sws_getCachedContext(scaler, w, h, AVPixelFormat(frame.pointee.format), w, h, target, SWS_BILINEAR, nil, nil, nil)
        guard let scaler else { throw KameraError.media(source, "cannot convert the frame's pixel format") }
        // swscale's vector code writes whole blocks of pixels: a row whose width is not a
        // multiple of the block (a 360-pixel portrait frame) is overrun by up to a block. Rows
        // are written top to bottom, so only the last one's overrun leaves the buffer: room is
        // made for it, then dropped (that heap overrun aborted the process on such videos).
        let slack = 256
        let rowBytes = Int(w) * outputFormat.bytesPerPixel
        var out = try PixelBuffer(
            width: Int(w), height: Int(h), format: outputFormat,
            bytes: [UInt8](repeating: 0, count: rowBytes * Int(h) + slack))
        let stride = Int32(out.bytesPerRow)
        out.bytes.withUnsafeMutableBufferPointer { pixels in
            var planes: [UnsafeMutablePointer<UInt8>?] = [pixels.baseAddress, nil, nil, nil]
            var strides: [Int32] = [stride, 0, 0, 0]
            withUnsafePointer(to: &frame.pointee.data) { dataTuple in
                dataTuple.withMemoryRebound(to: UnsafePointer<UInt8>?.self, capacity: 8) { sourcePlanes in
                    withUnsafePointer(to: &frame.pointee.linesize) { linesTuple in
                        linesTuple.withMemoryRebound(to: Int32.self, capacity: 8) { sourceStrides in
                            _ = sws_scale(scaler, sourcePlanes, sourceStrides, 0, h, &planes, &strides)
                        }
                    }
                }
            }
        }
        out.bytes.removeLast(slack)
        return out
    }
}
