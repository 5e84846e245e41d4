/// AVCaptureDevice's modes, named as there.
extension CaptureDevice {
    public enum FocusMode: String, Sendable, Hashable, Codable, CaseIterable {
        /// The lens stays where it is (or at `lensPosition` when one is given).
        case locked
        /// Focus once, then lock.
        case autoFocus = "auto"
        /// Keep focusing as the scene changes.
        case continuousAutoFocus = "continuous"
    }

    /// Where autofocus may search, so that it does not hunt: near for codes and documents held
    /// up to the camera, far for scenes.
    public enum AutoFocusRangeRestriction: String, Sendable, Hashable, Codable, CaseIterable {
        case none, near, far
    }

    public enum ExposureMode: String, Sendable, Hashable, Codable, CaseIterable {
        /// Exposure stays as it is.
        case locked
        /// Expose once, then lock (V4L2 has no one-shot: automatic, then manual at its value).
        case autoExpose = "auto"
        case continuousAutoExposure = "continuous"
        /// A given exposure time (and ISO or gain).
        case custom
    }

    public enum WhiteBalanceMode: String, Sendable, Hashable, Codable, CaseIterable {
        case locked
        case autoWhiteBalance = "auto"
        case continuousAutoWhiteBalance = "continuous"
    }

    public enum TorchMode: String, Sendable, Hashable, Codable, CaseIterable {
        case off, on
    }

    /// The mains frequency whose flicker the camera filters out (lights flicker at twice it).
    public enum PowerLineFrequency: String, Sendable, Hashable, Codable, CaseIterable {
        case disabled, hz50 = "50", hz60 = "60", auto

        var menuIndex: Int64 {
            switch self {
            case .disabled: 0
            case .hz50: 1
            case .hz60: 2
            case .auto: 3
            }
        }
    }
}
