import CFFmpeg
import KameraCore

/// FFmpeg's message for an error code.
func ffmpegMessage(_ code: Int32) -> String {
    var buffer = [CChar](repeating: 0, count: 256)
    kamera_error_string(code, &buffer, buffer.count)
    return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
}

extension KameraError {
    /// A media file or stream that FFmpeg could not handle.
    static func media(_ path: String, _ what: String, _ code: Int32? = nil) -> KameraError {
        .corruptMedia(path: path, reason: code.map { "\(what): \(ffmpegMessage($0))" } ?? what)
    }
}
