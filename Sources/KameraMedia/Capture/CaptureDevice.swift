import Foundation
import KameraCore
import Synchronization

/// A camera to configure before and while it captures, in AVCaptureDevice's shape over V4L2:
/// what it supports comes from its driver's control list; changes need
/// `lockForConfiguration()`, as there, and are refused with a typed error naming the device
/// and the setting when the camera lacks them.
///
/// While locked, Kamera holds the device's record priority, so other applications cannot
/// change its controls until `unlockForConfiguration()`.
public final class CaptureDevice: Sendable {
    /// The camera node, its name and formats.
    public let camera: CameraDevice
    private let state: Mutex<State>

    private struct State {
        var controls: CaptureDeviceControls
        var channel: V4L2ControlChannel?
    }

    /// The camera's controls as last read (after each `apply`, as the driver reports them).
    public var controls: CaptureDeviceControls { state.withLock { $0.controls } }

    /// Reads `camera`'s controls from its driver.
    /// - Throws: `KameraError.cameraConfigurationFailed` when the node cannot be opened.
    public convenience init(_ camera: CameraDevice) throws {
        let channel = try V4L2ControlChannel(path: camera.path)
        self.init(camera: camera, controls: try channel.controls())
    }

    /// A device described by a control list read before (or recorded from a driver): what it
    /// supports and the writes a setting needs can be worked out; locking needs the device.
    public init(camera: CameraDevice, controls: [CameraControl]) {
        self.camera = camera
        state = Mutex(State(controls: CaptureDeviceControls(device: camera.path, controls: controls), channel: nil))
    }

    /// The cameras present, each with its controls (cameras whose controls cannot be read are left out).
    public static func discoverDevices(in directory: String = "/dev") -> [CaptureDevice] {
        CameraDevice.discover(in: directory).filter { !$0.formats.isEmpty }.compactMap { try? CaptureDevice($0) }
    }

    /// Takes the device for configuration.
    /// - Throws: `KameraError.cameraConfigurationFailed` when it cannot be opened or another
    ///   application holds it.
    public func lockForConfiguration() throws {
        try state.withLock { state in
            guard state.channel == nil else { return }
            let channel = try V4L2ControlChannel(path: camera.path)
            try channel.claim()
            state.channel = channel
        }
    }

    /// Gives the device back: its settings stay as they are.
    public func unlockForConfiguration() {
        state.withLock { $0.channel = nil }
    }

    public var isLockedForConfiguration: Bool { state.withLock { $0.channel != nil } }

    /// Changes every setting given in `settings`, modes first.
    /// - Throws: `KameraError.cameraConfigurationFailed` when not locked or the driver refuses
    ///   a value; `KameraError.unsupportedCameraControl` naming the setting the camera lacks
    ///   (nothing is changed then); `KameraError.invalidArgument` for a value out of range.
    public func apply(_ settings: Settings) throws {
        try state.withLock { state in
            let writes = try state.controls.writes(for: settings)
            guard let channel = state.channel else {
                throw KameraError.cameraConfigurationFailed(device: camera.path, reason: "not locked for configuration")
            }
            for write in writes { try channel.set(write.id, to: write.value) }
            state.controls.controls = try channel.controls()
        }
    }

    // AVCaptureDevice's setters, each one `apply` of a single setting.

    public func setFocusMode(_ mode: FocusMode) throws { try apply(Settings(focusMode: mode)) }
    public func setFocusModeLocked(lensPosition: Double) throws { try apply(Settings(focusMode: .locked, lensPosition: lensPosition)) }
    public func setAutoFocusRangeRestriction(_ range: AutoFocusRangeRestriction) throws {
        try apply(Settings(autoFocusRangeRestriction: range))
    }
    public func setSmoothAutoFocusEnabled(_ enabled: Bool) throws { try apply(Settings(isSmoothAutoFocusEnabled: enabled)) }
    public func setExposureMode(_ mode: ExposureMode) throws { try apply(Settings(exposureMode: mode)) }
    /// - Parameters:
    ///   - duration: Seconds.
    ///   - iso: ISO, on cameras with an ISO control (nil leaves it).
    public func setExposureModeCustom(duration: Double, iso: Double? = nil) throws {
        try apply(Settings(exposureMode: .custom, exposureDuration: duration, iso: iso))
    }
    public func setExposureTargetBias(_ bias: Double) throws { try apply(Settings(exposureTargetBias: bias)) }
    public func setWhiteBalanceMode(_ mode: WhiteBalanceMode) throws { try apply(Settings(whiteBalanceMode: mode)) }
    public func setWhiteBalanceTemperature(_ kelvin: Double) throws { try apply(Settings(whiteBalanceTemperature: kelvin)) }
    public func setVideoZoomFactor(_ factor: Double) throws { try apply(Settings(videoZoomFactor: factor)) }
    public func setTorchMode(_ mode: TorchMode) throws { try apply(Settings(torchMode: mode)) }
    public func setPowerLineFrequency(_ frequency: PowerLineFrequency) throws { try apply(Settings(powerLineFrequency: frequency)) }
}
