import CFFmpeg
import Foundation
import KameraCore

/// The first audio stream of a movie, copied packet by packet into a recording without being
/// decoded (a redacted video keeps its sound bit for bit). Packets are written up to each
/// video frame's time so the muxer can interleave them.
final class AudioPassthrough {
    private var input: UnsafeMutablePointer<AVFormatContext>?
    private let inputIndex: Int32
    private let inputTimeBase: AVRational
    private var packet: UnsafeMutablePointer<AVPacket>?
    private var output: UnsafeMutablePointer<AVStream>?
    private var finished = false
    private let path: String

    /// Opens `path` and finds its audio; nil when it has none.
    /// - Throws: `corruptMedia` when the file cannot be opened.
    init?(path: String) throws {
        self.path = path
        var context: UnsafeMutablePointer<AVFormatContext>?
        var status = avformat_open_input(&context, path, nil, nil)
        guard status >= 0, let context else { throw KameraError.media(path, "cannot open", status) }
        input = context
        status = avformat_find_stream_info(context, nil)
        let index = status >= 0 ? av_find_best_stream(context, AVMEDIA_TYPE_AUDIO, -1, -1, nil, 0) : -1
        guard index >= 0, let stream = context.pointee.streams[Int(index)] else {
            avformat_close_input(&input)
            return nil
        }
        inputIndex = index
        inputTimeBase = stream.pointee.time_base
        packet = av_packet_alloc()
    }

    deinit {
        av_packet_free(&packet)
        avformat_close_input(&input)
    }

    /// The audio codec's name, for messages.
    var codecName: String {
        guard let stream = input?.pointee.streams[Int(inputIndex)] else { return "unknown" }
        return String(cString: avcodec_get_name(stream.pointee.codecpar.pointee.codec_id))
    }

    /// Adds the audio stream to `output` (before its header is written).
    /// - Throws: `unsupportedFormat` when the container cannot hold this codec untouched.
    func addStream(to output: UnsafeMutablePointer<AVFormatContext>, outputPath: String) throws {
        guard let source = input?.pointee.streams[Int(inputIndex)] else { return }
        let codec = source.pointee.codecpar.pointee.codec_id
        guard avformat_query_codec(output.pointee.oformat, codec, FF_COMPLIANCE_NORMAL) == 1 else {
            throw KameraError(
                code: .unsupportedFormat,
                reason: "\(path): its \(codecName) audio cannot be copied into \(URL(fileURLWithPath: outputPath).pathExtension) untouched",
                hint: "write a .mov (QuickTime holds more audio codecs), or drop the sound with --no-audio", path: path)
        }
        guard let stream = avformat_new_stream(output, nil) else {
            throw KameraError.writeFailed(path: outputPath, reason: "out of memory")
        }
        avcodec_parameters_copy(stream.pointee.codecpar, source.pointee.codecpar)
        // The input container's codec tag may mean something else in the output's.
        stream.pointee.codecpar.pointee.codec_tag = 0
        stream.pointee.time_base = inputTimeBase
        self.output = stream
    }

    /// Writes the audio packets up to `time` seconds of the source's clock, shifted so that
    /// `origin` (the first video frame's source time) is 0.
    /// With `time` nil, writes all that remain.
    /// - Throws: `writeFailed` or `diskFull`.
    func write(upTo time: Double?, origin: Double, into context: UnsafeMutablePointer<AVFormatContext>, outputPath: String) throws {
        guard !finished, let input, let packet, let output else { return }
        let base = av_q2d(inputTimeBase)
        let offset = Int64((origin / base).rounded())
        while true {
            // A packet read past `time` waits in `packet` for the next call.
            if packet.pointee.size == 0 || packet.pointee.stream_index != inputIndex {
                av_packet_unref(packet)
                let status = av_read_frame(input, packet)
                if status < 0 {
                    finished = true
                    return
                }
                guard packet.pointee.stream_index == inputIndex else { continue }
            }
            let stamp = packet.pointee.pts != kamera_nopts_value() ? packet.pointee.pts : packet.pointee.dts
            if let time, stamp != kamera_nopts_value(), Double(stamp) * base > time { return }
            // Packets before the first frame keep their (negative) times: AAC's priming packet
            // sits there, and the container's edit list hides it as the source's did.
            if packet.pointee.pts != kamera_nopts_value() { packet.pointee.pts -= offset }
            if packet.pointee.dts != kamera_nopts_value() { packet.pointee.dts -= offset }
            av_packet_rescale_ts(packet, inputTimeBase, output.pointee.time_base)
            packet.pointee.stream_index = output.pointee.index
            packet.pointee.pos = -1
            let status = av_interleaved_write_frame(context, packet)
            // av_interleaved_write_frame takes the packet's data and leaves it blank.
            av_packet_unref(packet)
            guard status >= 0 else {
                throw KameraError.writeFailed(path: outputPath, errno: -status, reason: ffmpegMessage(status))
            }
        }
    }
}
