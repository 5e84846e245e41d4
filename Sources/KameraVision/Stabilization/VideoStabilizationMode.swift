/// How strongly video is steadied, as AVCaptureVideoStabilizationMode names it. Stronger modes
/// smooth the camera's path over a longer time — slow pans stay, faster sways go too — and may
/// crop more of the frame to do it.
public enum VideoStabilizationMode: String, Sendable, Hashable, Codable, CaseIterable {
    /// Frames pass unchanged.
    case off
    /// Removes hand shake; a walk's sway and deliberate pans stay.
    case standard
    /// Smooths over about two seconds: steadier, more of the frame cropped.
    case cinematic
    /// Smooths over about three seconds, with the largest crop.
    case cinematicExtended = "cinematic-extended"
    /// The mode Kamera judges best: standard.
    case auto

    /// The standard deviation (seconds) of the window the camera's path is smoothed over.
    var smoothingSeconds: Double {
        switch self {
        case .off: 0
        case .standard, .auto: 1.0
        case .cinematic: 2.0
        case .cinematicExtended: 3.0
        }
    }

    /// The most of the frame's width (and height) the zoom may crop away: the output is
    /// magnified by at most `1 / (1 − maximumCrop)` (a video with little shake is cropped less).
    var maximumCrop: Double {
        switch self {
        case .off: 0
        case .standard, .auto: 0.12
        case .cinematic: 0.16
        case .cinematicExtended: 0.2
        }
    }
}
