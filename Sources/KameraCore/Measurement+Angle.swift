import Foundation

extension Measurement where UnitType == UnitAngle {
    /// An angle of `value` radians.
    public static func radians(_ value: Double) -> Measurement<UnitAngle> { Measurement(value: value, unit: .radians) }

    /// The angle in radians (for trigonometry).
    public var inRadians: Double { converted(to: .radians).value }

    /// The angle in degrees.
    public var inDegrees: Double { converted(to: .degrees).value }
}
