extension CaptureDevice {
    /// What a camera supports in AVCaptureDevice's terms, from its driver's control list (as
    /// `kamera cameras` prints it).
    public struct Support: Sendable, Hashable, Codable {
        public var focusModes: [FocusMode]
        public var autoFocusRangeRestriction: Bool
        public var smoothAutoFocus: Bool
        public var lensPosition: Bool
        public var exposureModes: [ExposureMode]
        public var whiteBalanceModes: [WhiteBalanceMode]
        public var torch: Bool
        public var powerLineFrequency: Bool
        public var maxZoomFactor: Double

        public init(_ controls: CaptureDeviceControls) {
            focusModes = FocusMode.allCases.filter(controls.isFocusModeSupported)
            autoFocusRangeRestriction = controls.isAutoFocusRangeRestrictionSupported
            smoothAutoFocus = controls.isSmoothAutoFocusSupported
            lensPosition = controls.isLockingFocusWithCustomLensPositionSupported
            exposureModes = ExposureMode.allCases.filter(controls.isExposureModeSupported)
            whiteBalanceModes = WhiteBalanceMode.allCases.filter(controls.isWhiteBalanceModeSupported)
            torch = controls.hasTorch
            powerLineFrequency = controls.isPowerLineFrequencySupported
            maxZoomFactor = controls.maxAvailableVideoZoomFactor
        }
    }
}
