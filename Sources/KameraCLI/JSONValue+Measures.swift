import Foundation
import Kamera

/// The CLI's numbers, each kind rounded once, here: enough digits for the measurement, no
/// float noise (`0.30000000000000004`) in the output. Angles are always degrees.
extension JSONValue {
    /// Normalized coordinates (0…1): 4 decimals, under half a pixel up to 5000 px.
    static func normalized(_ value: Double) -> JSONValue { rounded(value, 1e4) }
    /// Pixel coordinates: 1 decimal.
    static func pixels(_ value: Double) -> JSONValue { rounded(value, 10) }
    /// An angle given in radians, printed in degrees with 1 decimal.
    static func degrees(radians: Double) -> JSONValue { rounded(radians * 180 / .pi, 10) }
    /// Confidences and scores: 3 decimals.
    static func score(_ value: Double) -> JSONValue { rounded(value, 1e3) }
    /// Times in seconds: milliseconds.
    static func seconds(_ value: Double) -> JSONValue { rounded(value, 1e3) }

    /// `{x, y, width, height}` of a normalized rectangle (lower-left origin).
    static func box(_ rect: NormalizedRect) -> JSONValue {
        .object([("x", normalized(rect.x)), ("y", normalized(rect.y)), ("width", normalized(rect.width)), ("height", normalized(rect.height))])
    }

    /// `{x, y, width, height}` of a pixel rectangle (top-left origin).
    static func box(_ rect: PixelRect) -> JSONValue {
        .object([("x", pixels(rect.x)), ("y", pixels(rect.y)), ("width", pixels(rect.width)), ("height", pixels(rect.height))])
    }

    private static func rounded(_ value: Double, _ scale: Double) -> JSONValue { .number((value * scale).rounded() / scale) }
}
