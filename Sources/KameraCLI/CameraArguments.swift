import ArgumentParser
import Foundation
import Kamera
import KameraReports

extension SessionPreset: ExpressibleByArgument {}

/// The camera settings `record` and `scan` take, applied to a V4L2 camera before it streams
/// (and held — other applications cannot change them — until the command ends). Preferences
/// the camera cannot honour (smooth autofocus, a focus range) are warned about, as apps check
/// `is…Supported` first; explicit values it cannot take (a lens position, an exposure time, a
/// size) are errors naming the camera and the setting.
struct CameraArguments: ParsableArguments {
    @Option(
        name: .long, help: "Focus: near or far (continuous, range restricted), auto (continuous), locked, or locked:0…1 (lens position).")
    var focus: String?

    @Flag(name: .long, help: "Smooth autofocus while recording (where the camera offers it).")
    var smoothFocus = false

    @Option(name: .long, help: "Exposure: auto (continuous), locked, or a time in seconds (e.g. 0.01).")
    var exposure: String?

    @Option(name: .long, help: "Capture size: high, medium, low, 640x480, 1280x720 or 1920x1080.")
    var sessionPreset: SessionPreset?

    var isEmpty: Bool { focus == nil && !smoothFocus && exposure == nil && sessionPreset == nil }

    /// The settings asked for, preferences (focus range, smooth autofocus) apart.
    func settings() throws -> (settings: CaptureDevice.Settings, range: CaptureDevice.AutoFocusRangeRestriction?) {
        var settings = CaptureDevice.Settings()
        var range: CaptureDevice.AutoFocusRangeRestriction?
        switch focus {
        case nil: break
        case "near"?, "far"?, "auto"?, "continuous"?:
            settings.focusMode = .continuousAutoFocus
            range = focus == "near" ? .near : focus == "far" ? .far : CaptureDevice.AutoFocusRangeRestriction?.none
        case "locked"?: settings.focusMode = .locked
        case let value? where value.hasPrefix("locked:"):
            guard let position = Double(value.dropFirst(7)), position.isFinite, (0...1).contains(position) else {
                throw ValidationError("--focus locked:POSITION takes a lens position 0…1, not \(value.dropFirst(7))")
            }
            settings.focusMode = .locked
            settings.lensPosition = position
        case let value?: throw ValidationError("--focus is near, far, auto, locked or locked:0…1, not \(value)")
        }
        switch exposure {
        case nil: break
        case "auto"?, "continuous"?: settings.exposureMode = .continuousAutoExposure
        case "locked"?: settings.exposureMode = .locked
        case let value?:
            guard let seconds = Double(value), seconds.isFinite, seconds > 0, seconds <= 10 else {
                throw ValidationError("--exposure is auto, locked or a time in seconds (0…10], not \(value)")
            }
            settings.exposureMode = .custom
            settings.exposureDuration = seconds
        }
        return (settings, range)
    }

    /// Opens `path` configured as asked; the returned device stays locked until the caller
    /// unlocks it (nil when nothing was asked).
    func open(camera path: String) throws -> (reader: MovieReader, device: CaptureDevice?) {
        let camera = CameraDevice(queryingDeviceAt: path) ?? CameraDevice(path: path, name: path)
        let format = try sessionPreset.map { try camera.format(for: $0) }
        guard focus != nil || exposure != nil || smoothFocus else {
            return (try MovieReader(camera: camera, format: format), nil)
        }
        let device = try CaptureDevice(camera)
        try device.lockForConfiguration()
        do {
            var (settings, range) = try settings()
            if let range {
                if device.controls.isAutoFocusRangeRestrictionSupported {
                    settings.autoFocusRangeRestriction = range
                } else if range != .none {
                    StandardStreams.error("kamera: \(path) has no autofocus range control; focusing over the whole range\n")
                }
            }
            if smoothFocus {
                if device.controls.isSmoothAutoFocusSupported {
                    settings.isSmoothAutoFocusEnabled = true
                } else {
                    StandardStreams.error("kamera: \(path) does not offer smooth autofocus; its own autofocus is used\n")
                }
            }
            try device.apply(settings)
            return (try MovieReader(camera: camera, format: format), device)
        } catch {
            device.unlockForConfiguration()
            throw error
        }
    }

    /// Rejects camera settings given for a source that is not a camera.
    func requireCamera(_ camera: String?) throws {
        if camera == nil && !isEmpty {
            throw ValidationError("--focus, --smooth-focus, --exposure and --session-preset configure a camera: give --camera DEVICE")
        }
        _ = try settings()
    }
}
