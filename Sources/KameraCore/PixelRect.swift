/// An axis-aligned rectangle in pixel coordinates (top-left origin, y down).
public struct PixelRect: Sendable, Hashable, Codable {
    public var x, y, width, height: Double

    public init(x: Double, y: Double, width: Double, height: Double) {
        (self.x, self.y, self.width, self.height) = (x, y, width, height)
    }

    /// The smallest rectangle holding all `points`.
    public init(enclosing points: [PixelPoint]) {
        let xs = points.map(\.x), ys = points.map(\.y)
        let minX = xs.min() ?? 0, minY = ys.min() ?? 0
        self.init(x: minX, y: minY, width: (xs.max() ?? 0) - minX, height: (ys.max() ?? 0) - minY)
    }

    public var minX: Double { x }
    public var minY: Double { y }
    public var maxX: Double { x + width }
    public var maxY: Double { y + height }
    public var center: PixelPoint { PixelPoint(x: x + width / 2, y: y + height / 2) }

    /// Whether `point` lies inside or on the edge.
    public func contains(_ point: PixelPoint) -> Bool {
        point.x >= minX && point.x <= maxX && point.y >= minY && point.y <= maxY
    }

    /// Whether `other` lies wholly inside, edges included.
    public func contains(_ other: PixelRect) -> Bool {
        other.minX >= minX && other.maxX <= maxX && other.minY >= minY && other.maxY <= maxY
    }
    public var area: Double { max(0, width) * max(0, height) }

    /// The overlap of two rectangles, or nil if they do not overlap.
    public func intersection(_ other: PixelRect) -> PixelRect? {
        let x0 = max(minX, other.minX), y0 = max(minY, other.minY)
        let x1 = min(maxX, other.maxX), y1 = min(maxY, other.maxY)
        guard x1 > x0, y1 > y0 else { return nil }
        return PixelRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    /// The rectangle grown by `dx` left and right and `dy` above and below (shrunk if negative).
    public func expanded(dx: Double, dy: Double) -> PixelRect {
        PixelRect(x: x - dx, y: y - dy, width: width + 2 * dx, height: height + 2 * dy)
    }

    /// The smallest rectangle holding both.
    public func union(_ other: PixelRect) -> PixelRect {
        let x0 = min(minX, other.minX), y0 = min(minY, other.minY)
        return PixelRect(x: x0, y: y0, width: max(maxX, other.maxX) - x0, height: max(maxY, other.maxY) - y0)
    }

    /// Intersection over union, 0…1.
    public func intersectionOverUnion(_ other: PixelRect) -> Double {
        guard let overlap = intersection(other) else { return 0 }
        return overlap.area / (area + other.area - overlap.area)
    }

    /// The same rectangle normalized to an image of `size`, with Vision's lower-left origin.
    public func normalized(in size: Size) -> NormalizedRect {
        NormalizedRect(
            x: x / size.width, y: 1 - maxY / size.height,
            width: width / size.width, height: height / size.height)
    }
}
