import CFFmpeg
import CFFmpegLoader
import KameraCore

/// FFmpeg, opened once per process at the first movie read or written (not at start-up: its
/// libraries cost every `kamera` command a tenth of a second; see CFFmpegLoader).
enum FFmpegSetup {
    private static let core: Result<Void, KameraError> = opened(
        by: kamera_ffmpeg_load, name: "FFmpeg's libraries",
        hint: "install them: apt-get install libavformat59 libavcodec59 libswscale6 (bash scripts/setup.sh does)"
    ) {
        // FFmpeg and x264 log to stderr; Kamera reports failures as typed errors, so only fatal
        // messages are let through.
        av_log_set_level(AV_LOG_FATAL)
    }

    private static let devices: Result<Void, KameraError> = opened(
        by: kamera_ffmpeg_load_devices, name: "FFmpeg's device library", hint: "install it: apt-get install libavdevice59"
    ) { avdevice_register_all() }

    /// Opens FFmpeg if it is not open yet.
    /// - Throws: `missingResource` naming the library that could not be opened.
    static func load() throws { try core.get() }

    /// Opens FFmpeg with its capture devices (V4L2) registered.
    /// - Throws: `missingResource` naming the library that could not be opened.
    static func loadDevices() throws {
        try core.get()
        try devices.get()
    }

    /// Runs one of the loader's `open` functions, then `setUp` once it succeeded; a failure
    /// becomes `missingResource` with the dynamic loader's own message.
    private static func opened(
        by open: (UnsafeMutablePointer<CChar>?, Int) -> Int32, name: String, hint: String, then setUp: () -> Void
    ) -> Result<Void, KameraError> {
        var message = [CChar](repeating: 0, count: 512)
        guard open(&message, message.count) == 0 else {
            let reason = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            return .failure(.missingResource(name: "\(name) (\(reason))", hint: hint))
        }
        setUp()
        return .success(())
    }
}
