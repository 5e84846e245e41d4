import Foundation

/// A V4L2 control ID (`V4L2_CID_…`): the standard ones Kamera maps onto AVCaptureDevice's
/// settings are named; any other a driver offers keeps its number.
public struct CameraControlID: RawRepresentable, Sendable, Hashable, Codable, CustomStringConvertible {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    public static let brightness = Self(rawValue: 0x0098_0900)
    public static let contrast = Self(rawValue: 0x0098_0901)
    public static let saturation = Self(rawValue: 0x0098_0902)
    /// Continuous automatic white balance (boolean).
    public static let autoWhiteBalance = Self(rawValue: 0x0098_090C)
    public static let gain = Self(rawValue: 0x0098_0913)
    /// Mains flicker filter (menu: 0 off, 1 50 Hz, 2 60 Hz, 3 automatic).
    public static let powerLineFrequency = Self(rawValue: 0x0098_0918)
    /// White balance in kelvin, used while automatic white balance is off.
    public static let whiteBalanceTemperature = Self(rawValue: 0x0098_091A)
    public static let sharpness = Self(rawValue: 0x0098_091B)
    /// Exposure mode (menu: 0 automatic, 1 manual, 2 shutter priority, 3 aperture priority).
    public static let exposureAuto = Self(rawValue: 0x009A_0901)
    /// Exposure time in units of 100 µs, used in manual exposure.
    public static let exposureAbsolute = Self(rawValue: 0x009A_0902)
    /// Whether automatic exposure may lower the frame rate (boolean).
    public static let exposureAutoPriority = Self(rawValue: 0x009A_0903)
    /// Lens position, used while autofocus is off.
    public static let focusAbsolute = Self(rawValue: 0x009A_090A)
    /// Continuous autofocus (boolean).
    public static let focusAuto = Self(rawValue: 0x009A_090C)
    public static let zoomAbsolute = Self(rawValue: 0x009A_090D)
    /// Exposure compensation in 0.001 EV (integer menu).
    public static let autoExposureBias = Self(rawValue: 0x009A_0913)
    public static let isoSensitivity = Self(rawValue: 0x009A_0917)
    /// One autofocus run (button).
    public static let autoFocusStart = Self(rawValue: 0x009A_091C)
    /// Where autofocus searches (menu: 0 automatic, 1 normal, 2 macro, 3 infinity).
    public static let autoFocusRange = Self(rawValue: 0x009A_091F)
    /// The flash LED (menu: 0 off, 1 flash, 2 torch).
    public static let flashLEDMode = Self(rawValue: 0x009C_0901)

    public var description: String {
        let names: [CameraControlID: String] = [
            .brightness: "brightness", .contrast: "contrast", .saturation: "saturation", .autoWhiteBalance: "auto white balance",
            .gain: "gain", .powerLineFrequency: "power line frequency", .whiteBalanceTemperature: "white balance temperature",
            .sharpness: "sharpness", .exposureAuto: "exposure mode", .exposureAbsolute: "exposure time",
            .exposureAutoPriority: "exposure priority", .focusAbsolute: "focus position", .focusAuto: "continuous autofocus",
            .zoomAbsolute: "zoom", .autoExposureBias: "exposure bias", .isoSensitivity: "ISO", .autoFocusStart: "autofocus run",
            .autoFocusRange: "autofocus range", .flashLEDMode: "flash LED",
        ]
        return names[self] ?? String(format: "control 0x%08x", rawValue)
    }
}
