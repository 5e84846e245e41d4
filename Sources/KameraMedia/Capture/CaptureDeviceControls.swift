import Foundation
import KameraCore

/// What a camera's controls (as its driver listed them) mean in AVCaptureDevice's terms:
/// which settings it supports, what they are now, and the control writes that make a
/// `CaptureDevice.Settings` so. Pure: the V4L2 layer only lists controls and writes values.
public struct CaptureDeviceControls: Sendable, Hashable, Codable {
    /// The device, to name it in errors.
    public var device: String
    public var controls: [CameraControl]

    public init(device: String, controls: [CameraControl]) {
        self.device = device
        self.controls = controls
    }

    public subscript(id: CameraControlID) -> CameraControl? {
        controls.first { $0.id == id && !$0.isReadOnly }
    }

    private func has(_ id: CameraControlID, menuIndex: Int64) -> Bool {
        self[id]?.menu.contains { $0.index == menuIndex } ?? false
    }

    // MARK: What is supported

    public func isFocusModeSupported(_ mode: CaptureDevice.FocusMode) -> Bool {
        switch mode {
        case .continuousAutoFocus: self[.focusAuto] != nil
        case .locked: self[.focusAuto] != nil || self[.focusAbsolute] != nil
        case .autoFocus: self[.autoFocusStart] != nil
        }
    }

    /// Whether a lens position can be set (manual focus).
    public var isLockingFocusWithCustomLensPositionSupported: Bool { self[.focusAbsolute] != nil }

    /// V4L2 defines no control for autofocus speed, so no V4L2 driver offers smooth autofocus.
    public var isSmoothAutoFocusSupported: Bool { false }

    public var isAutoFocusRangeRestrictionSupported: Bool { self[.autoFocusRange] != nil }

    /// V4L2 has no standard focus point control (UVC cameras focus on the whole picture).
    public var isFocusPointOfInterestSupported: Bool { false }

    public func isExposureModeSupported(_ mode: CaptureDevice.ExposureMode) -> Bool {
        switch mode {
        case .continuousAutoExposure: has(.exposureAuto, menuIndex: 0) || has(.exposureAuto, menuIndex: 3)
        case .custom: has(.exposureAuto, menuIndex: 1) && self[.exposureAbsolute] != nil
        case .locked, .autoExpose: has(.exposureAuto, menuIndex: 1)
        }
    }

    public func isWhiteBalanceModeSupported(_ mode: CaptureDevice.WhiteBalanceMode) -> Bool {
        self[.autoWhiteBalance] != nil
    }

    public var hasTorch: Bool { has(.flashLEDMode, menuIndex: 2) }

    public var isPowerLineFrequencySupported: Bool { self[.powerLineFrequency] != nil }

    /// The largest zoom factor: the zoom control's range over its least value (UVC's zoom is
    /// in units of the lens's focal length), 1 without one.
    public var maxAvailableVideoZoomFactor: Double {
        guard let zoom = self[.zoomAbsolute], zoom.maximum > zoom.minimum else { return 1 }
        return zoom.minimum > 0 ? Double(zoom.maximum) / Double(zoom.minimum) : 1 + Double(zoom.maximum - zoom.minimum) / 100
    }

    // MARK: What it is now

    public var focusMode: CaptureDevice.FocusMode? {
        if let auto = self[.focusAuto] { return auto.value != 0 ? .continuousAutoFocus : .locked }
        return self[.focusAbsolute] != nil ? .locked : nil
    }

    /// 0 … 1 of the focus control's range.
    public var lensPosition: Double? { self[.focusAbsolute].map(Self.fraction) }

    public var autoFocusRangeRestriction: CaptureDevice.AutoFocusRangeRestriction? {
        self[.autoFocusRange].map { $0.value == 2 ? .near : $0.value == 3 ? .far : .none }
    }

    public var exposureMode: CaptureDevice.ExposureMode? {
        self[.exposureAuto].map { $0.value == 1 ? .custom : .continuousAutoExposure }
    }

    /// Seconds (V4L2's exposure time is in 100 µs).
    public var exposureDuration: Double? { self[.exposureAbsolute].map { Double($0.value) / 10_000 } }

    public var whiteBalanceMode: CaptureDevice.WhiteBalanceMode? {
        self[.autoWhiteBalance].map { $0.value != 0 ? .continuousAutoWhiteBalance : .locked }
    }

    public var videoZoomFactor: Double {
        guard let zoom = self[.zoomAbsolute] else { return 1 }
        return zoom.minimum > 0 ? Double(zoom.value) / Double(zoom.minimum) : 1 + Double(zoom.value - zoom.minimum) / 100
    }

    public var torchMode: CaptureDevice.TorchMode? { self[.flashLEDMode].map { $0.value == 2 ? .on : .off } }

    static func fraction(_ control: CameraControl) -> Double {
        control.maximum > control.minimum ? Double(control.value - control.minimum) / Double(control.maximum - control.minimum) : 0
    }

    // MARK: Writes

    /// The control writes, in order, that make `settings` so (modes first: a manual value is
    /// ignored while its automatic mode is on).
    /// - Throws: `KameraError.unsupportedCameraControl` naming the device and the setting
    ///   when the camera lacks it; `KameraError.invalidArgument` for a value out of range.
    public func writes(for settings: CaptureDevice.Settings) throws -> [(id: CameraControlID, value: Int64)] {
        var writes: [(id: CameraControlID, value: Int64)] = []
        func control(_ id: CameraControlID, for setting: String) throws -> CameraControl {
            guard let found = self[id] else { throw KameraError.unsupportedCameraControl(device: device, control: setting) }
            return found
        }
        func menu(_ id: CameraControlID, _ index: Int64, for setting: String) throws {
            guard has(id, menuIndex: index) else { throw KameraError.unsupportedCameraControl(device: device, control: setting) }
            writes.append((id, index))
        }
        func fractionOfRange(_ value: Double, _ id: CameraControlID, for setting: String) throws {
            guard value.isFinite, (0...1).contains(value) else {
                throw KameraError.invalidArgument("\(setting) is 0…1, not \(value)")
            }
            let found = try control(id, for: setting)
            let raw = Double(found.minimum) + value * Double(found.maximum - found.minimum)
            writes.append((id, found.nearestAccepted(Int64(raw.rounded()))))
        }
        func absolute(_ value: Double, scale: Double, _ id: CameraControlID, for setting: String) throws {
            let found = try control(id, for: setting)
            let raw = value * scale
            guard raw.isFinite, raw >= Double(found.minimum) - 0.5, raw <= Double(found.maximum) + 0.5 else {
                throw KameraError.invalidArgument(
                    "\(setting) \(value) is outside what \(device) allows (\(Double(found.minimum) / scale)…\(Double(found.maximum) / scale))"
                )
            }
            writes.append((id, found.nearestAccepted(Int64(raw.rounded()))))
        }
        if settings.isSmoothAutoFocusEnabled == true, !isSmoothAutoFocusSupported {
            throw KameraError.unsupportedCameraControl(device: device, control: "smooth autofocus")
        }
        if let range = settings.autoFocusRangeRestriction {
            // none: the driver's own choice (automatic, else normal).
            let index: Int64 = range == .near ? 2 : range == .far ? 3 : has(.autoFocusRange, menuIndex: 0) ? 0 : 1
            try menu(.autoFocusRange, index, for: "autofocus range restriction \(range.rawValue)")
        }
        switch settings.focusMode {
        case .continuousAutoFocus?: writes.append((try control(.focusAuto, for: "continuous autofocus").id, 1))
        case .locked?:
            if self[.focusAuto] != nil { writes.append((.focusAuto, 0)) }
            guard isFocusModeSupported(.locked) else { throw KameraError.unsupportedCameraControl(device: device, control: "locked focus") }
        case .autoFocus?:
            if self[.focusAuto] != nil { writes.append((.focusAuto, 0)) }
            writes.append((try control(.autoFocusStart, for: "single autofocus").id, 1))
        case nil: break
        }
        if let position = settings.lensPosition {
            if settings.focusMode == nil, self[.focusAuto] != nil { writes.append((.focusAuto, 0)) }
            try fractionOfRange(position, .focusAbsolute, for: "lens position")
        }
        switch settings.exposureMode {
        case .continuousAutoExposure?:
            try menu(.exposureAuto, has(.exposureAuto, menuIndex: 3) ? 3 : 0, for: "continuous auto exposure")
        case .locked?, .custom?, .autoExpose?: try menu(.exposureAuto, 1, for: "manual exposure")
        case nil: break
        }
        if let duration = settings.exposureDuration {
            if settings.exposureMode == nil { try menu(.exposureAuto, 1, for: "manual exposure") }
            try absolute(duration, scale: 10_000, .exposureAbsolute, for: "exposure duration (s)")
        }
        if let iso = settings.iso { try absolute(iso, scale: 1, .isoSensitivity, for: "ISO") }
        if let gain = settings.gain { try fractionOfRange(gain, .gain, for: "gain") }
        if let bias = settings.exposureTargetBias {
            // An integer menu of 0.001-EV steps: the nearest one offered.
            let found = try control(.autoExposureBias, for: "exposure bias")
            let target = bias * 1000
            guard target.isFinite else { throw KameraError.invalidArgument("exposure bias must be a number, not \(bias)") }
            let options = found.menu.compactMap { item in Double(item.name).map { (item.index, $0) } }
            guard let nearest = options.min(by: { abs($0.1 - target) < abs($1.1 - target) }) else {
                throw KameraError.unsupportedCameraControl(device: device, control: "exposure bias")
            }
            writes.append((.autoExposureBias, nearest.0))
        }
        switch settings.whiteBalanceMode {
        case .continuousAutoWhiteBalance?, .autoWhiteBalance?:
            writes.append((try control(.autoWhiteBalance, for: "automatic white balance").id, 1))
        case .locked?: writes.append((try control(.autoWhiteBalance, for: "locked white balance").id, 0))
        case nil: break
        }
        if let kelvin = settings.whiteBalanceTemperature {
            if settings.whiteBalanceMode == nil, self[.autoWhiteBalance] != nil { writes.append((.autoWhiteBalance, 0)) }
            try absolute(kelvin, scale: 1, .whiteBalanceTemperature, for: "white balance temperature (K)")
        }
        if let factor = settings.videoZoomFactor {
            let zoom = try control(.zoomAbsolute, for: "zoom")
            guard factor.isFinite, factor >= 1, factor <= maxAvailableVideoZoomFactor + 1e-9 else {
                throw KameraError.invalidArgument("zoom factor is 1…\(maxAvailableVideoZoomFactor) on \(device), not \(factor)")
            }
            let raw = zoom.minimum > 0 ? factor * Double(zoom.minimum) : Double(zoom.minimum) + (factor - 1) * 100
            writes.append((.zoomAbsolute, zoom.nearestAccepted(Int64(raw.rounded()))))
        }
        if let torch = settings.torchMode { try menu(.flashLEDMode, torch == .on ? 2 : 0, for: "torch \(torch.rawValue)") }
        if let frequency = settings.powerLineFrequency {
            try menu(.powerLineFrequency, frequency.menuIndex, for: "power line frequency \(frequency.rawValue)")
        }
        return writes
    }
}
