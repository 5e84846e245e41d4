import CFFmpeg
import CFFmpegLoader
import KameraCore

/// FFmpeg, opened once per process at the first movie read or written (not at start-up: its
/// libraries cost every `kamera` command a tenth of a second; see CFFmpegLoader).
enum FFmpegSetup {
    private static let core: Result<Void, KameraError> = {
        var message = [CChar](repeating: 0, count: 512)
        guard kamera_ffmpeg_load(&message, message.count) == 0 else {
            return .failure(
                .missingResource(
                    name: "FFmpeg's libraries (\(text(message)))",
                    hint: "install them: apt-get install libavformat59 libavcodec59 libswscale6 (bash scripts/setup.sh does)"))
        }
        // FFmpeg and x264 log to stderr; Kamera reports failures as typed errors, so only fatal
        // messages are let through.
        av_log_set_level(AV_LOG_FATAL)
        return .success(())
    }()

    private static let devices: Result<Void, KameraError> = {
        var message = [CChar](repeating: 0, count: 512)
        guard kamera_ffmpeg_load_devices(&message, message.count) == 0 else {
            return .failure(
                .missingResource(
                    name: "FFmpeg's device library (\(text(message)))",
                    hint: "install it: apt-get install libavdevice59"))
        }
        avdevice_register_all()
        return .success(())
    }()

    /// The C string in `buffer`.
    private static func text(_ buffer: [CChar]) -> String {
        String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Opens FFmpeg if it is not open yet.
    /// - Throws: `missingResource` naming the library that could not be opened.
    static func load() throws { try core.get() }

    /// Opens FFmpeg with its capture devices (V4L2) registered.
    /// - Throws: `missingResource` naming the library that could not be opened.
    static func loadDevices() throws {
        try core.get()
        try devices.get()
    }
}
