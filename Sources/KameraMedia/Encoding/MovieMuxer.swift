import CFFmpeg
import Foundation
import KameraCore

/// An MPEG-4 or QuickTime file being written from H.264 packets (and copied audio): the
/// container side of `MovieRecorder` and `EventClipRecorder`. Fragmented movies start with an
/// empty index and write a self-contained fragment at every key frame, and every packet is
/// pushed to the file as soon as it is written, so a crash loses at most the fragment in
/// progress. Not thread-safe.
final class MovieMuxer {
    let url: URL
    private(set) var context: UnsafeMutablePointer<AVFormatContext>?
    private var video: UnsafeMutablePointer<AVStream>?
    private var packet: UnsafeMutablePointer<AVPacket>?
    private var open = false

    /// The container for `url`'s extension (`MovieRecorder.containerExtensions`), with one
    /// video stream described by `parameters`, turned `rotation` degrees clockwise on playback.
    /// - Throws: `writeFailed` when the muxer cannot be made.
    init(url: URL, video parameters: UnsafePointer<AVCodecParameters>, rotation: Int) throws {
        self.url = url
        let muxer = MovieRecorder.containerExtensions[url.pathExtension.lowercased()] ?? "mov"
        var context: UnsafeMutablePointer<AVFormatContext>?
        guard avformat_alloc_output_context2(&context, nil, muxer, url.path) >= 0, let context else {
            throw KameraError.writeFailed(path: url.path, reason: "cannot create a \(muxer) muxer")
        }
        self.context = context
        guard let stream = avformat_new_stream(context, nil), let packet = av_packet_alloc() else {
            release()
            throw KameraError.writeFailed(path: url.path, reason: "out of memory")
        }
        (video, self.packet) = (stream, packet)
        avcodec_parameters_copy(stream.pointee.codecpar, parameters)
        stream.pointee.time_base = VideoEncoder.timeBase
        if rotation != 0, let side = av_stream_new_side_data(stream, AV_PKT_DATA_DISPLAYMATRIX, 9 * 4) {
            // av_display_rotation_set takes the clockwise angle (av_display_rotation_get returns
            // it counter-clockwise, which MovieReader turns back into clockwise degrees).
            av_display_rotation_set(UnsafeMutableRawPointer(side).assumingMemoryBound(to: Int32.self), Double(rotation))
        }
    }

    deinit { release() }

    /// Whether the container takes SPS/PPS once, in its header (MP4 and QuickTime do).
    static func wantsGlobalHeader(_ url: URL) -> Bool {
        let name = MovieRecorder.containerExtensions[url.pathExtension.lowercased()] ?? "mov"
        guard let format = av_guess_format(name, nil, nil) else { return true }
        return format.pointee.flags & AVFMT_GLOBALHEADER != 0
    }

    /// Bytes on disk so far.
    var writtenBytes: Int64 {
        guard let io = context?.pointee.pb else { return 0 }
        return avio_tell(io)
    }

    /// Creates the file and writes the header.
    /// - Parameters:
    ///   - fragmentInterval: seconds per fragment at most; 0 writes a plain movie (its index
    ///     only at the end, lost on a crash).
    ///   - waitsForAudio: whether the header waits for the first audio packets (AC-3 needs them).
    /// - Throws: `writeFailed` or `diskFull`.
    func begin(fragmentInterval: Double, waitsForAudio: Bool) throws {
        guard let context else { return }
        var status = avio_open(&context.pointee.pb, url.path, AVIO_FLAG_WRITE)
        guard status >= 0 else { throw writeError(status) }
        open = true
        var options: OpaquePointer?
        if fragmentInterval > 0 {
            // An empty moov up front and self-contained fragments: every completed fragment is
            // playable without the index a plain movie writes only at the end.
            let delay = waitsForAudio ? "+delay_moov" : ""
            av_dict_set(&options, "movflags", "frag_keyframe+empty_moov+default_base_moof" + delay, 0)
            av_dict_set(&options, "frag_duration", String(Int64(fragmentInterval * 1_000_000)), 0)
        }
        status = avformat_write_header(context, &options)
        av_dict_free(&options)
        guard status >= 0 else { throw writeError(status, "cannot write the movie header") }
        try flush()
    }

    /// Writes an encoded video packet (timestamps in `VideoEncoder.timeBase`) moved `shift`
    /// milliseconds earlier; `source` is left as it was.
    /// - Throws: `writeFailed` or `diskFull`.
    func write(_ source: UnsafePointer<AVPacket>, shiftedBy shift: Int64 = 0) throws {
        guard let context, let video, let packet else { return }
        guard av_packet_ref(packet, source) >= 0 else { throw KameraError.writeFailed(path: url.path, reason: "out of memory") }
        packet.pointee.pts -= shift
        packet.pointee.dts -= shift
        av_packet_rescale_ts(packet, VideoEncoder.timeBase, video.pointee.time_base)
        packet.pointee.stream_index = video.pointee.index
        let status = av_interleaved_write_frame(context, packet)
        // av_interleaved_write_frame takes the packet's data and leaves it blank.
        av_packet_unref(packet)
        guard status >= 0 else { throw writeError(status) }
        // Push completed fragments to the file now rather than when a buffer fills.
        try flush()
    }

    /// Writes the index and closes the file.
    /// - Throws: `writeFailed` or `diskFull` (the file is closed either way).
    func finish() throws {
        guard let context, open else { return }
        open = false
        let status = av_write_trailer(context)
        avio_closep(&context.pointee.pb)
        guard status >= 0 else { throw writeError(status, "cannot finish the movie") }
    }

    /// Closes the file as it is, after a failed write (a fragmented movie stays playable up to
    /// its last complete fragment). Never throws: the disk has already failed.
    func abandon(writingTrailer: Bool) {
        guard let context, open else { return }
        open = false
        if writingTrailer { _ = av_write_trailer(context) }
        avio_closep(&context.pointee.pb)
    }

    /// Pushes buffered bytes to the file and reports a write that failed (FFmpeg keeps a
    /// failed buffered write's error on the I/O context, not in a return value).
    func flush() throws {
        guard let io = context?.pointee.pb else { return }
        avio_flush(io)
        if io.pointee.error < 0 { throw writeError(io.pointee.error) }
    }

    /// A failed write as `diskFull` or `writeFailed`.
    func writeError(_ status: Int32, _ what: String? = nil) -> KameraError {
        .writeFailed(path: url.path, errno: -status, reason: [what, ffmpegMessage(status)].compactMap { $0 }.joined(separator: ": "))
    }

    private func release() {
        av_packet_free(&packet)
        if let context {
            if context.pointee.pb != nil { avio_closep(&context.pointee.pb) }
            avformat_free_context(context)
            self.context = nil
        }
    }
}
