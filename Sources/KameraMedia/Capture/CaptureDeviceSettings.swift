extension CaptureDevice {
    /// What to change on a camera, each field nil to leave that setting alone; applied
    /// together by `CaptureDevice.apply(_:)`, modes before the values they enable.
    public struct Settings: Sendable, Hashable, Codable {
        public var focusMode: FocusMode?
        /// The lens position (0 nearest … 1 farthest the driver allows) to lock focus at.
        public var lensPosition: Double?
        public var autoFocusRangeRestriction: AutoFocusRangeRestriction?
        public var isSmoothAutoFocusEnabled: Bool?
        public var exposureMode: ExposureMode?
        /// Seconds, for the custom exposure mode.
        public var exposureDuration: Double?
        /// ISO, for the custom exposure mode (cameras with an ISO control).
        public var iso: Double?
        /// Sensor gain, 0 … 1 of the driver's range (UVC cameras have gain rather than ISO).
        public var gain: Double?
        /// Exposure compensation in EV, for automatic exposure.
        public var exposureTargetBias: Double?
        public var whiteBalanceMode: WhiteBalanceMode?
        /// Kelvin, for the locked white balance.
        public var whiteBalanceTemperature: Double?
        /// 1 = the widest view.
        public var videoZoomFactor: Double?
        public var torchMode: TorchMode?
        public var powerLineFrequency: PowerLineFrequency?

        public init(
            focusMode: FocusMode? = nil, lensPosition: Double? = nil, autoFocusRangeRestriction: AutoFocusRangeRestriction? = nil,
            isSmoothAutoFocusEnabled: Bool? = nil, exposureMode: ExposureMode? = nil, exposureDuration: Double? = nil,
            iso: Double? = nil, gain: Double? = nil, exposureTargetBias: Double? = nil, whiteBalanceMode: WhiteBalanceMode? = nil,
            whiteBalanceTemperature: Double? = nil, videoZoomFactor: Double? = nil, torchMode: TorchMode? = nil,
            powerLineFrequency: PowerLineFrequency? = nil
        ) {
            self.focusMode = focusMode
            self.lensPosition = lensPosition
            self.autoFocusRangeRestriction = autoFocusRangeRestriction
            self.isSmoothAutoFocusEnabled = isSmoothAutoFocusEnabled
            self.exposureMode = exposureMode
            self.exposureDuration = exposureDuration
            self.iso = iso
            self.gain = gain
            self.exposureTargetBias = exposureTargetBias
            self.whiteBalanceMode = whiteBalanceMode
            self.whiteBalanceTemperature = whiteBalanceTemperature
            self.videoZoomFactor = videoZoomFactor
            self.torchMode = torchMode
            self.powerLineFrequency = powerLineFrequency
        }
    }
}
