import Foundation
import Kamera
import KameraTestTiers
import Testing

/// CaptureDevice's mapping onto V4L2 controls, on control lists as drivers report them to
/// VIDIOC_QUERYCTRL / VIDIOC_QUERYMENU (no camera exists on the build machine). The UVC list
/// is a Logitech C920's (uvcvideo, `v4l2-ctl --list-ctrls-menus`): ids, types, ranges, steps,
/// defaults and flags as recorded; the sensor list is a phone-style camera module's
/// (autofocus range, ISO, exposure bias as an integer menu, a torch LED).
@Suite(.tier(.unit)) struct CaptureDeviceControlTests {
    /// (id, type, name, min, max, step, default, value, flags, menu)
    typealias Queried = (UInt32, UInt32, String, Int64, Int64, Int64, Int64, Int64, UInt32, [(Int64, String)])

    static func controls(_ list: [Queried]) -> [CameraControl] {
        list.map {
            CameraControl(
                queried: $0.0, type: $0.1, name: $0.2, minimum: $0.3, maximum: $0.4, step: $0.5, defaultValue: $0.6, value: $0.7,
                flags: $0.8, menu: $0.9.map { .init(index: $0.0, name: $0.1) })
        }
    }

    static let c920: [Queried] = [
        (0x0098_0900, 1, "Brightness", 0, 255, 1, 128, 128, 0x20, []),
        (0x0098_0901, 1, "Contrast", 0, 255, 1, 128, 128, 0x20, []),
        (0x0098_0902, 1, "Saturation", 0, 255, 1, 128, 128, 0x20, []),
        (0x0098_090C, 2, "White Balance Temperature, Auto", 0, 1, 1, 1, 1, 0, []),
        (0x0098_0913, 1, "Gain", 0, 255, 1, 0, 0, 0x20, []),
        (0x0098_0918, 3, "Power Line Frequency", 0, 2, 1, 2, 2, 0, [(0, "Disabled"), (1, "50 Hz"), (2, "60 Hz")]),
        (0x0098_091A, 1, "White Balance Temperature", 2000, 6500, 1, 4000, 4000, 0x30, []),
        (0x0098_091B, 1, "Sharpness", 0, 255, 1, 128, 128, 0x20, []),
        (0x0098_091C, 1, "Backlight Compensation", 0, 1, 1, 0, 0, 0x20, []),
        (0x009A_0901, 3, "Exposure, Auto", 0, 3, 1, 3, 3, 0, [(1, "Manual Mode"), (3, "Aperture Priority Mode")]),
        (0x009A_0902, 1, "Exposure (Absolute)", 3, 2047, 1, 250, 250, 0x30, []),
        (0x009A_0903, 2, "Exposure, Auto Priority", 0, 1, 1, 0, 1, 0, []),
        (0x009A_0908, 1, "Pan (Absolute)", -36000, 36000, 3600, 0, 0, 0, []),
        (0x009A_0909, 1, "Tilt (Absolute)", -36000, 36000, 3600, 0, 0, 0, []),
        (0x009A_090A, 1, "Focus (absolute)", 0, 250, 5, 0, 0, 0x30, []),
        (0x009A_090C, 2, "Focus, Auto", 0, 1, 1, 1, 1, 0, []),
        (0x009A_090D, 1, "Zoom, Absolute", 100, 500, 1, 100, 100, 0, []),
    ]

    static let module: [Queried] = [
        (0x009A_0901, 3, "Auto Exposure", 0, 1, 1, 0, 0, 0, [(0, "Auto Mode"), (1, "Manual Mode")]),
        (0x009A_0902, 1, "Exposure Time, Absolute", 1, 3333, 1, 330, 330, 0, []),
        (
            0x009A_0913, 9, "Auto Exposure, Bias", 0, 8, 1, 4, 4, 0,
            [(0, "-2000"), (1, "-1500"), (2, "-1000"), (3, "-500"), (4, "0"), (5, "500"), (6, "1000"), (7, "1500"), (8, "2000")]
        ),
        (0x009A_0917, 1, "ISO Sensitivity", 100, 1600, 100, 100, 100, 0, []),
        (0x009A_091C, 4, "Auto Focus, Start", 0, 1, 1, 0, 0, 0x40, []),
        (0x009A_091F, 3, "Auto Focus, Range", 0, 3, 1, 0, 0, 0, [(0, "Auto"), (1, "Normal"), (2, "Macro"), (3, "Infinity")]),
        (0x009A_090C, 2, "Focus, Automatic Continuous", 0, 1, 1, 1, 1, 0, []),
        (0x009A_090A, 1, "Focus, Absolute", 0, 1023, 1, 0, 0, 0, []),
        (0x009C_0901, 3, "LED Mode", 0, 2, 1, 0, 0, 0, [(0, "Off"), (1, "Flash"), (2, "Torch")]),
    ]

    let webcam = CaptureDeviceControls(device: "/dev/video0", controls: Self.controls(Self.c920))
    let phoneModule = CaptureDeviceControls(device: "/dev/video2", controls: Self.controls(Self.module))

    @Test func supportComesFromTheDriversList() {
        #expect(webcam.isFocusModeSupported(.continuousAutoFocus) && webcam.isFocusModeSupported(.locked))
        #expect(!webcam.isFocusModeSupported(.autoFocus))
        #expect(!webcam.isAutoFocusRangeRestrictionSupported && !webcam.isSmoothAutoFocusSupported && !webcam.hasTorch)
        #expect(webcam.isExposureModeSupported(.continuousAutoExposure) && webcam.isExposureModeSupported(.custom))
        #expect(webcam.isPowerLineFrequencySupported && webcam.maxAvailableVideoZoomFactor == 5)
        #expect(webcam.focusMode == .continuousAutoFocus && webcam.exposureMode == .continuousAutoExposure)
        #expect(webcam.exposureDuration == 0.025 && webcam.whiteBalanceMode == .continuousAutoWhiteBalance)
        #expect(phoneModule.isAutoFocusRangeRestrictionSupported && phoneModule.hasTorch && phoneModule.isFocusModeSupported(.autoFocus))
        #expect(
            !phoneModule.isPowerLineFrequencySupported
                && phoneModule.autoFocusRangeRestriction == CaptureDevice.AutoFocusRangeRestriction.none)
        let support = CaptureDevice.Support(webcam)
        #expect(
            support.focusModes == [.locked, .continuousAutoFocus]
                && support.exposureModes == [.locked, .autoExpose, .continuousAutoExposure, .custom])
        #expect(support.maxZoomFactor == 5 && !support.torch && support.lensPosition)
        let menu = Self.controls(Self.c920).first { $0.id == .exposureAuto }!
        #expect(menu.kind == .menu && menu.accepts(1) && !menu.accepts(0) && !menu.accepts(2))
        let focus = Self.controls(Self.c920).first { $0.id == .focusAbsolute }!
        #expect(focus.isInactive && focus.accepts(25) && !focus.accepts(27) && focus.nearestAccepted(27) == 25)
    }

    @Test func settingsBecomeControlWritesModesFirst() throws {
        // A lens position turns continuous autofocus off first; 0.5 of 0…250 in steps of 5 is 125.
        let locked = try webcam.writes(for: .init(focusMode: .locked, lensPosition: 0.5))
        #expect(locked.map(\.id) == [.focusAuto, .focusAbsolute] && locked.map(\.value) == [0, 125])
        // 10 ms is 100 units of 100 µs, in manual mode (menu index 1).
        let exposure = try webcam.writes(for: .init(exposureMode: .custom, exposureDuration: 0.01))
        #expect(exposure.map(\.id) == [.exposureAuto, .exposureAbsolute] && exposure.map(\.value) == [1, 100])
        // Aperture priority is the UVC camera's automatic exposure; the module's is "auto" (0).
        #expect(try webcam.writes(for: .init(exposureMode: .continuousAutoExposure)).map(\.value) == [3])
        #expect(try phoneModule.writes(for: .init(exposureMode: .continuousAutoExposure)).map(\.value) == [0])
        #expect(try webcam.writes(for: .init(videoZoomFactor: 2.5)).map(\.value) == [250])
        #expect(try webcam.writes(for: .init(powerLineFrequency: .hz50)).map(\.value) == [1])
        #expect(try webcam.writes(for: .init(whiteBalanceTemperature: 5000)).map(\.value) == [0, 5000])
        let near = try phoneModule.writes(for: .init(focusMode: .continuousAutoFocus, autoFocusRangeRestriction: .near))
        #expect(near.map(\.id) == [.autoFocusRange, .focusAuto] && near.map(\.value) == [2, 1])
        #expect(try phoneModule.writes(for: .init(torchMode: .on)).map(\.value) == [2])
        // +0.7 EV: the nearest offered step is +0.5 EV (index 5).
        #expect(try phoneModule.writes(for: .init(exposureTargetBias: 0.7)).map(\.value) == [5])
        #expect(try phoneModule.writes(for: .init(exposureMode: .custom, iso: 400)).map(\.value) == [1, 400])
    }

    @Test func whatTheCameraLacksIsATypedErrorNamingDeviceAndSetting() throws {
        for settings in [
            CaptureDevice.Settings(autoFocusRangeRestriction: .near), .init(isSmoothAutoFocusEnabled: true), .init(torchMode: .on),
            .init(iso: 200), .init(exposureTargetBias: 1),
        ] {
            let error = try #require(throws: KameraError.self) { try webcam.writes(for: settings) }
            #expect(error.code == .unsupportedCameraControl && error.reason.contains("/dev/video0"), "\(error.reason)")
        }
        let range = try #require(throws: KameraError.self) { try webcam.writes(for: .init(autoFocusRangeRestriction: .near)) }
        #expect(range.reason.contains("autofocus range"))
        for settings in [
            CaptureDevice.Settings(lensPosition: 1.5), .init(lensPosition: .nan), .init(exposureDuration: 1),
            .init(exposureDuration: -0.01), .init(videoZoomFactor: 6), .init(videoZoomFactor: .infinity),
            .init(whiteBalanceTemperature: 10_000),
        ] {
            let error = try #require(throws: KameraError.self) { try webcam.writes(for: settings) }
            #expect(error.code == .invalidArgument, "\(settings): \(error.reason)")
        }
        #expect(throws: KameraError.self) { try phoneModule.writes(for: .init(powerLineFrequency: .hz60)) }
    }

    @Test func lockingIsNeededAndAMissingDeviceIsATypedError() throws {
        let offline = CaptureDevice(camera: CameraDevice(path: "/nonexistent/video9"), controls: Self.controls(Self.c920))
        let notLocked = try #require(throws: KameraError.self) { try offline.setFocusMode(.locked) }
        #expect(notLocked.code == .cameraConfigurationFailed && notLocked.reason.contains("not locked"))
        let missing = try #require(throws: KameraError.self) { try offline.lockForConfiguration() }
        #expect(missing.code == .cameraConfigurationFailed && missing.reason.contains("/nonexistent/video9"))
        #expect(!offline.isLockedForConfiguration)
        // An unsupported setting is refused before anything is written, locked or not.
        let unsupported = try #require(throws: KameraError.self) { try offline.setTorchMode(.on) }
        #expect(unsupported.code == .unsupportedCameraControl)
        #expect(throws: KameraError.self) { try CaptureDevice(CameraDevice(path: "/dev/null")) }
    }

    @Test func presetsPickAFormat() throws {
        let webcam = CameraDevice(
            path: "/dev/video0",
            formats: [
                .init(fourCC: "YUYV", width: 640, height: 480), .init(fourCC: "YUYV", width: 320, height: 240),
                .init(fourCC: "YUYV", width: 160, height: 120), .init(fourCC: "MJPG", width: 1920, height: 1080),
                .init(fourCC: "MJPG", width: 1280, height: 720), .init(fourCC: "MJPG", width: 640, height: 480),
            ])
        #expect(try webcam.format(for: .high) == .init(fourCC: "MJPG", width: 1920, height: 1080))
        #expect(try webcam.format(for: .medium) == .init(fourCC: "MJPG", width: 640, height: 480))
        #expect(try webcam.format(for: .low) == .init(fourCC: "YUYV", width: 320, height: 240))
        #expect(try webcam.format(for: .hd1280x720) == .init(fourCC: "MJPG", width: 1280, height: 720))
        let missing = CameraDevice(path: "/dev/video1", formats: [.init(fourCC: "YUYV", width: 640, height: 480)])
        let error = try #require(throws: KameraError.self) { try missing.format(for: .hd1920x1080) }
        #expect(error.code == .unsupportedCameraControl && error.reason.contains("1920x1080"))
    }
}
