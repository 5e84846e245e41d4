import Foundation
import KameraCore

/// How records round each kind of number, in one place: enough digits for the measurement
/// and no float noise (`0.30000000000000004`) in JSON. Angles are always degrees.
public enum RecordRounding {
    /// Normalized coordinates (0…1): 4 decimals, under half a pixel up to 5000 px.
    public static func normalized(_ value: Double) -> Double { rounded(value, 1e4) }
    /// Pixel coordinates: 1 decimal.
    public static func pixels(_ value: Double) -> Double { rounded(value, 10) }
    /// An angle, in degrees with 1 decimal.
    public static func degrees(_ angle: Measurement<UnitAngle>) -> Double { rounded(angle.inDegrees, 10) }
    /// Confidences and scores: 3 decimals.
    public static func score(_ value: Double) -> Double { rounded(value, 1e3) }
    /// Times in seconds: milliseconds.
    public static func seconds(_ value: Double) -> Double { rounded(value, 1e3) }

    private static func rounded(_ value: Double, _ scale: Double) -> Double { (value * scale).rounded() / scale }
}
