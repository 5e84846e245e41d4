import Foundation
import KameraCore

/// The seeds' face layer: a rectangle the size of the face box, turned in 3-D about its
/// centre — by roll about Z, then by yaw about −Y — and seen with Core Animation's
/// perspective (m34 = −1/1000, so a point 1000 px toward the viewer would be at infinity).
public struct FaceLayerTransform: Sendable {
    public var roll: Double
    public var yaw: Double
    /// Core Animation's m34 entry.
    public var m34: Double

    public init(roll: Double, yaw: Double, m34: Double = -1.0 / 1000) {
        self.roll = roll
        self.yaw = yaw
        self.m34 = m34
    }

    /// Where the corners of `rect` land on screen (top-left, top-right, bottom-right, bottom-left).
    public func corners(of rect: PixelRect) -> [PixelPoint] {
        let c = rect.center
        let local = [
            (-rect.width / 2, -rect.height / 2), (rect.width / 2, -rect.height / 2),
            (rect.width / 2, rect.height / 2), (-rect.width / 2, rect.height / 2),
        ]
        return local.map { project(x: $0.0, y: $0.1, center: c) }
    }

    /// Projects a point of the layer (relative to its centre, y down) to the screen.
    public func project(x: Double, y: Double, center: PixelPoint) -> PixelPoint {
        // Work with y up so positive roll turns the layer counter-clockwise on screen.
        var px = x, py = -y, pz = 0.0
        // Yaw about −Y: the face turning toward the viewer's right swings its right edge back.
        let cy = cos(-yaw), sy = sin(-yaw)
        (px, pz) = (px * cy + pz * sy, -px * sy + pz * cy)
        let cr = cos(roll), sr = sin(roll)
        (px, py) = (px * cr - py * sr, px * sr + py * cr)
        // Perspective divide as CATransform3D with m34: w = 1 + m34·z (z toward the viewer).
        let w = max(1 + m34 * pz, 0.05)
        return PixelPoint(x: center.x + px / w, y: center.y - py / w)
    }
}
