import Foundation
import Kamera

/// How records round each kind of number, in one place: enough digits for the measurement
/// and no float noise (`0.30000000000000004`) in JSON. Angles are always degrees.
package enum RecordRounding {
    /// Normalized coordinates (0…1): 4 decimals, under half a pixel up to 5000 px.
    package static func normalized(_ value: Double) -> Double { rounded(value, 1e4) }
    /// Pixel coordinates: 1 decimal.
    package static func pixels(_ value: Double) -> Double { rounded(value, 10) }
    /// An angle, in degrees with 1 decimal.
    package static func degrees(_ angle: Measurement<UnitAngle>) -> Double { rounded(angle.inDegrees, 10) }
    /// Confidences and scores: 3 decimals.
    package static func score(_ value: Double) -> Double { rounded(value, 1e3) }
    /// Times in seconds: milliseconds.
    package static func seconds(_ value: Double) -> Double { rounded(value, 1e3) }
    /// Metres to the millimetre.
    package static func metres(_ value: Double) -> Double { rounded(value, 1e3) }

    private static func rounded(_ value: Double, _ scale: Double) -> Double { (value * scale).rounded() / scale }
}
