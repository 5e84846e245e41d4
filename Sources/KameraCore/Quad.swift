/// Four corners of a (possibly rotated or perspective-distorted) quadrilateral in pixel
/// coordinates, named as the symbol or region reads upright.
public struct Quad: Sendable, Hashable, Codable {
    public var topLeft: PixelPoint
    public var topRight: PixelPoint
    public var bottomRight: PixelPoint
    public var bottomLeft: PixelPoint

    public init(topLeft: PixelPoint, topRight: PixelPoint, bottomRight: PixelPoint, bottomLeft: PixelPoint) {
        self.topLeft = topLeft
        self.topRight = topRight
        self.bottomRight = bottomRight
        self.bottomLeft = bottomLeft
    }

    /// The axis-aligned rectangle `rect` as a quad.
    public init(_ rect: PixelRect) {
        self.init(
            topLeft: PixelPoint(x: rect.minX, y: rect.minY), topRight: PixelPoint(x: rect.maxX, y: rect.minY),
            bottomRight: PixelPoint(x: rect.maxX, y: rect.maxY), bottomLeft: PixelPoint(x: rect.minX, y: rect.maxY))
    }

    /// The corners in order topLeft, topRight, bottomRight, bottomLeft.
    public var corners: [PixelPoint] { [topLeft, topRight, bottomRight, bottomLeft] }

    /// Twice the signed area in image coordinates (y down): positive when topLeft → topRight →
    /// bottomRight → bottomLeft runs clockwise on screen, as an upright, unmirrored symbol's do.
    public var signedArea: Double {
        let c = corners
        return (0..<4).reduce(0) { sum, i in
            let (a, b) = (c[i], c[(i + 1) % 4])
            return sum + a.x * b.y - b.x * a.y
        }
    }

    /// The same outline with top and bottom edges exchanged (the quad mirrored across its
    /// horizontal axis).
    public var flippedVertically: Quad {
        Quad(topLeft: bottomLeft, topRight: bottomRight, bottomRight: topRight, bottomLeft: topLeft)
    }

    /// The axis-aligned bounds of the corners.
    public var boundingRect: PixelRect { PixelRect(enclosing: corners) }

    /// The mean of the corners.
    public var center: PixelPoint {
        PixelPoint(x: corners.map(\.x).reduce(0, +) / 4, y: corners.map(\.y).reduce(0, +) / 4)
    }

    /// True if `point` lies inside the quad (convex or not), by ray crossing.
    public func contains(_ point: PixelPoint) -> Bool {
        var inside = false
        let c = corners
        var j = 3
        for i in 0..<4 {
            if (c[i].y > point.y) != (c[j].y > point.y),
                point.x < (c[j].x - c[i].x) * (point.y - c[i].y) / (c[j].y - c[i].y) + c[i].x
            {
                inside.toggle()
            }
            j = i
        }
        return inside
    }
}
