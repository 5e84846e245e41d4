import Foundation
import KameraCore

/// A rectangle in image pixels (top-left origin) turned by `angle` radians about its centre,
/// clockwise on screen (y points down). The region a face model looks at.
struct RotatedRect: Sendable, Equatable {
    var center: PixelPoint
    var width: Double
    var height: Double
    var angle: Double

    /// Image position of a point given in the rect's own unit coordinates (0…1 across, 0…1 down).
    func imagePoint(u: Double, v: Double) -> PixelPoint {
        let dx = (u - 0.5) * width, dy = (v - 0.5) * height
        let c = cos(angle), s = sin(angle)
        return PixelPoint(x: center.x + dx * c - dy * s, y: center.y + dx * s + dy * c)
    }

    /// The rect scaled about its centre.
    func scaled(by factor: Double) -> RotatedRect {
        RotatedRect(center: center, width: width * factor, height: height * factor, angle: angle)
    }
}
