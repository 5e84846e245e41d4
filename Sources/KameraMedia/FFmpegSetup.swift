import CFFmpeg

/// Process-wide FFmpeg setup, done once before the first reader or recorder.
enum FFmpegSetup {
    /// FFmpeg and x264 log to stderr; Kamera reports failures as typed errors, so only fatal
    /// messages are let through. Capture devices (V4L2) are registered.
    static let once: Void = {
        av_log_set_level(AV_LOG_FATAL)
        avdevice_register_all()
    }()
}
