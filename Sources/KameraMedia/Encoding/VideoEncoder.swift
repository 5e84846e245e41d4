import CFFmpeg
import Foundation
import KameraCore

/// FFmpeg's H.264 encoder (libx264) fed with `PixelBuffer`s: frames are converted to 4:2:0
/// YUV and encoded with a key frame every `keyFrameInterval` seconds, no B-frames and no
/// look-ahead, so every packet leaves as soon as its frame is encoded. Timestamps are
/// milliseconds. Shared by `MovieRecorder` (packets go straight to its file) and
/// `EventClipRecorder` (packets wait in a pre-roll buffer, so a frame is never encoded twice).
/// Not thread-safe.
final class VideoEncoder {
    let width: Int
    let height: Int
    let frameRate: Double
    /// Packet timestamps count in this unit (1/1000 s).
    static let timeBase = AVRational(num: 1, den: 1000)
    /// The stream's description for a muxer (codec, size, SPS/PPS extradata when `globalHeader`).
    private(set) var parameters: UnsafeMutablePointer<AVCodecParameters>?
    private var codec: UnsafeMutablePointer<AVCodecContext>?
    private var frame: UnsafeMutablePointer<AVFrame>?
    private var packet: UnsafeMutablePointer<AVPacket>?
    private var scaler: OpaquePointer?
    /// Named in errors: the file the packets are for.
    private let path: String

    /// - Parameters:
    ///   - keyFrameInterval: seconds between key frames (each fragment of a movie opens on one).
    ///   - globalHeader: SPS/PPS in the parameters rather than in the stream (MP4 and QuickTime want this).
    ///   - path: the file the packets are written to, for error messages.
    /// - Throws: `missingResource` without an H.264 encoder; `writeFailed` when it cannot open.
    init(
        width: Int, height: Int, frameRate: Double, keyFrameInterval: Double, preset: String, quality: Int, globalHeader: Bool,
        path: String
    ) throws {
        (self.width, self.height, self.frameRate, self.path) = (width, height, frameRate, path)
        guard let encoder = avcodec_find_encoder_by_name("libx264") ?? avcodec_find_encoder(AV_CODEC_ID_H264) else {
            throw KameraError.missingResource(name: "H.264 encoder", hint: "install libavcodec59 with libx264 (Debian's FFmpeg has it)")
        }
        guard let codec = avcodec_alloc_context3(encoder) else { throw KameraError.writeFailed(path: path, reason: "out of memory") }
        self.codec = codec
        codec.pointee.width = Int32(width)
        codec.pointee.height = Int32(height)
        codec.pointee.pix_fmt = AV_PIX_FMT_YUV420P
        // Millisecond timestamps: sources deliver frames at their own times.
        codec.pointee.time_base = Self.timeBase
        codec.pointee.framerate = av_d2q(frameRate, 1000)
        codec.pointee.gop_size = Int32(max(1, (frameRate * keyFrameInterval).rounded()))
        codec.pointee.max_b_frames = 0
        codec.pointee.thread_count = 0
        if globalHeader { codec.pointee.flags |= kamera_codec_flag_global_header() }
        av_opt_set(codec.pointee.priv_data, "preset", preset, 0)
        av_opt_set(codec.pointee.priv_data, "crf", String(quality), 0)
        // No look-ahead: frames reach the file (and survive a crash) as soon as they are encoded.
        av_opt_set(codec.pointee.priv_data, "tune", "zerolatency", 0)
        let status = avcodec_open2(codec, encoder, nil)
        guard status >= 0 else {
            release()
            throw KameraError.writeFailed(path: path, reason: "cannot open the H.264 encoder: \(ffmpegMessage(status))")
        }
        parameters = avcodec_parameters_alloc()
        frame = av_frame_alloc()
        packet = av_packet_alloc()
        guard let parameters, let frame, packet != nil else {
            release()
            throw KameraError.writeFailed(path: path, reason: "out of memory")
        }
        avcodec_parameters_from_context(parameters, codec)
        frame.pointee.format = AV_PIX_FMT_YUV420P.rawValue
        frame.pointee.width = codec.pointee.width
        frame.pointee.height = codec.pointee.height
        guard av_frame_get_buffer(frame, 0) >= 0 else {
            release()
            throw KameraError.writeFailed(path: path, reason: "out of memory")
        }
    }

    deinit { release() }

    /// A frame's length in packet time units, for packets the encoder leaves without one.
    var frameDuration: Int64 { max(1, Int64((1000 / frameRate).rounded())) }

    /// Encodes `image` shown at `pts` milliseconds (nil: flushes the encoder at the end) and
    /// hands every packet that comes out to `handle`, which must take what it needs from the
    /// packet before it returns (`av_packet_ref`, or a muxer's write that takes it).
    /// - Throws: `invalidArgument` for a frame of another size; `writeFailed` when encoding
    ///   fails; what `handle` throws.
    func encode(_ image: PixelBuffer?, pts: Int64, handle: (UnsafeMutablePointer<AVPacket>) throws -> Void) throws {
        guard let codec, let frame, let packet else { return }
        var status: Int32
        if let image {
            guard image.width == width, image.height == height else {
                throw KameraError.invalidArgument("frame is \(image.width)×\(image.height), the recording \(width)×\(height)")
            }
            try fill(frame, from: image)
            frame.pointee.pts = pts
            status = avcodec_send_frame(codec, frame)
        } else {
            status = avcodec_send_frame(codec, nil)
        }
        guard status >= 0 else { throw KameraError.writeFailed(path: path, reason: "encoder: \(ffmpegMessage(status))") }
        while true {
            status = avcodec_receive_packet(codec, packet)
            if status == kamera_eagain() || status == kamera_averror_eof() { return }
            guard status >= 0 else { throw KameraError.writeFailed(path: path, reason: "encoder: \(ffmpegMessage(status))") }
            if packet.pointee.duration == 0 { packet.pointee.duration = frameDuration }
            defer { av_packet_unref(packet) }
            try handle(packet)
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
            throw KameraError.writeFailed(path: path, reason: "cannot convert frame")
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
        avcodec_parameters_free(&parameters)
        avcodec_free_context(&codec)
    }
}
