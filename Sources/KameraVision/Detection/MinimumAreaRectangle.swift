import Foundation
import KameraCore

/// The smallest rectangle, at any angle, round a set of points (OpenCV's `minAreaRect`): the
/// convex hull (monotone chain), then each hull edge tried as a side of the rectangle.
struct MinimumAreaRectangle {
    var center: PixelPoint
    /// Along the angle, and across it.
    var width: Double, height: Double
    /// Radians, clockwise on screen, of the `width` side.
    var angle: Double

    /// nil for fewer than three distinct points in general position (a line or a dot).
    init?(_ points: [PixelPoint]) {
        let hull = Self.convexHull(points)
        guard hull.count >= 3 else { return nil }
        var best: (area: Double, rect: (PixelPoint, Double, Double, Double))?
        for i in hull.indices {
            let (a, b) = (hull[i], hull[(i + 1) % hull.count])
            let length = a.distance(to: b)
            guard length > 0 else { continue }
            let (ux, uy) = ((b.x - a.x) / length, (b.y - a.y) / length)
            var (minU, maxU, minV, maxV) = (Double.infinity, -Double.infinity, Double.infinity, -Double.infinity)
            for p in hull {
                let (u, v) = (p.x * ux + p.y * uy, -p.x * uy + p.y * ux)
                (minU, maxU, minV, maxV) = (min(minU, u), max(maxU, u), min(minV, v), max(maxV, v))
            }
            let area = (maxU - minU) * (maxV - minV)
            if best == nil || area < best!.area {
                let (cu, cv) = ((minU + maxU) / 2, (minV + maxV) / 2)
                let center = PixelPoint(x: cu * ux - cv * uy, y: cu * uy + cv * ux)
                best = (area, (center, maxU - minU, maxV - minV, atan2(uy, ux)))
            }
        }
        guard let rect = best?.rect else { return nil }
        (center, width, height, angle) = rect
    }

    /// The corners: top-left, top-right, bottom-right, bottom-left as the rectangle is read
    /// with its longer side level (text runs along the longer side).
    var corners: Quad {
        var (w, h, angle) = (width, height, angle)
        if h > w { (w, h, angle) = (h, w, angle + .pi / 2) }
        // Read left to right: the angle within ±90°.
        while angle > .pi / 2 { angle -= .pi }
        while angle <= -.pi / 2 { angle += .pi }
        let (c, s) = (cos(angle), sin(angle))
        func point(_ u: Double, _ v: Double) -> PixelPoint { PixelPoint(x: center.x + u * c - v * s, y: center.y + u * s + v * c) }
        return Quad(
            topLeft: point(-w / 2, -h / 2), topRight: point(w / 2, -h / 2), bottomRight: point(w / 2, h / 2),
            bottomLeft: point(-w / 2, h / 2))
    }

    static func convexHull(_ points: [PixelPoint]) -> [PixelPoint] {
        let sorted = points.sorted { $0.x != $1.x ? $0.x < $1.x : $0.y < $1.y }
        guard sorted.count >= 3 else { return sorted }
        func cross(_ o: PixelPoint, _ a: PixelPoint, _ b: PixelPoint) -> Double { (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x) }
        var lower: [PixelPoint] = [], upper: [PixelPoint] = []
        for p in sorted {
            while lower.count >= 2, cross(lower[lower.count - 2], lower[lower.count - 1], p) <= 0 { lower.removeLast() }
            lower.append(p)
        }
        for p in sorted.reversed() {
            while upper.count >= 2, cross(upper[upper.count - 2], upper[upper.count - 1], p) <= 0 { upper.removeLast() }
            upper.append(p)
        }
        return Array(lower.dropLast() + upper.dropLast())
    }
}
