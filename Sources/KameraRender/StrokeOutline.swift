import Foundation
import KameraCore

/// Turns a polyline into fillable outlines: one rectangle per segment and a disc per
/// vertex, all wound the same way so a non-zero fill gives their union.
enum StrokeOutline {
    static func paths(for points: [PixelPoint], closed: Bool, width: Double) -> [[PixelPoint]] {
        guard !points.isEmpty, width > 0 else { return [] }
        let half = width / 2
        var paths: [[PixelPoint]] = []
        let count = closed ? points.count : points.count - 1
        for i in 0..<max(0, count) {
            let a = points[i], b = points[(i + 1) % points.count]
            let dx = b.x - a.x, dy = b.y - a.y
            let length = (dx * dx + dy * dy).squareRoot()
            guard length > 1e-9 else { continue }
            let nx = -dy / length * half, ny = dx / length * half
            paths.append(
                oriented([
                    PixelPoint(x: a.x + nx, y: a.y + ny), PixelPoint(x: b.x + nx, y: b.y + ny),
                    PixelPoint(x: b.x - nx, y: b.y - ny), PixelPoint(x: a.x - nx, y: a.y - ny),
                ]))
        }
        let sides = max(8, min(32, Int(width * 2)))
        for p in points {
            paths.append(
                oriented(
                    (0..<sides).map { k in
                        let t = Double(k) / Double(sides) * 2 * .pi
                        return PixelPoint(x: p.x + cos(t) * half, y: p.y + sin(t) * half)
                    }))
        }
        return paths
    }

    /// The polygon wound clockwise on screen (positive shoelace area with y down).
    private static func oriented(_ polygon: [PixelPoint]) -> [PixelPoint] {
        var area = 0.0
        for i in 0..<polygon.count {
            let a = polygon[i], b = polygon[(i + 1) % polygon.count]
            area += a.x * b.y - b.x * a.y
        }
        return area >= 0 ? polygon : polygon.reversed()
    }
}
