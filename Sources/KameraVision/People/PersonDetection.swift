import Foundation
import KameraCore

/// A person found by BlazePose's detector, in image pixels (top-left origin): the box, the
/// score, and four keypoints — the middle of the hips, a point on the circle round the whole
/// body, the middle of the shoulders, a point on the circle round the upper body.
struct PersonDetection: KeypointDetection {
    var box: PixelRect
    var keypoints: [PixelPoint]
    var score: Float

    static let hipsCenter = 0, bodyCircle = 1, shouldersCenter = 2, upperBodyCircle = 3

    /// The region the landmark model looks at (MediaPipe's pose ROI): a square round the
    /// body circle, ×1.25, turned so the body stands upright in it.
    var bodyRegion: RotatedRect { Self.bodyRegion(center: keypoints[Self.hipsCenter], edge: keypoints[Self.bodyCircle]) }

    /// The square round the circle centred on the hips' centre through `edge`, ×1.25, turned
    /// so that `edge` is straight above the centre.
    static func bodyRegion(center: PixelPoint, edge: PixelPoint) -> RotatedRect {
        let side = 2 * center.distance(to: edge) * 1.25
        return RotatedRect(center: center, width: side, height: side, angle: uprightAngle(from: center, to: edge))
    }

    /// The box round the circle centred on `center` through `edge` (axis-aligned).
    static func circleBox(center: PixelPoint, edge: PixelPoint) -> PixelRect {
        let radius = center.distance(to: edge)
        return PixelRect(x: center.x - radius, y: center.y - radius, width: 2 * radius, height: 2 * radius)
    }

    /// The turn (radians, clockwise on screen) that puts `to` straight above `from`.
    static func uprightAngle(from: PixelPoint, to: PixelPoint) -> Double {
        var angle = Double.pi / 2 - atan2(-(to.y - from.y), to.x - from.x)
        while angle > .pi { angle -= 2 * .pi }
        while angle < -.pi { angle += 2 * .pi }
        return angle
    }
}
