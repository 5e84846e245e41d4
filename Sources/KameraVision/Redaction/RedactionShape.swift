import KameraCore

/// The outline a redaction covers, in pixels with a top-left origin.
public enum RedactionShape: Sendable, Equatable {
    /// The ellipse inscribed in a rectangle (faces).
    case ellipse(PixelRect)
    /// A polygon, corners in order (codes and text: their quads).
    case polygon([PixelPoint])

    /// The axis-aligned bounds.
    public var bounds: PixelRect {
        switch self {
        case .ellipse(let rect): rect
        case .polygon(let points): PixelRect(enclosing: points)
        }
    }

    /// Whether the pixel centre `point` is covered.
    public func contains(_ point: PixelPoint) -> Bool {
        switch self {
        case .ellipse(let rect):
            guard rect.width > 0, rect.height > 0 else { return false }
            let dx = (point.x - rect.center.x) / (rect.width / 2), dy = (point.y - rect.center.y) / (rect.height / 2)
            return dx * dx + dy * dy <= 1
        case .polygon(let points):
            var inside = false
            var j = points.count - 1
            for i in points.indices {
                let (a, b) = (points[i], points[j])
                if (a.y > point.y) != (b.y > point.y), point.x < (b.x - a.x) * (point.y - a.y) / (b.y - a.y) + a.x {
                    inside.toggle()
                }
                j = i
            }
            return inside
        }
    }

    /// The shape grown by `fraction` of its size on each side (about its centre), plus
    /// `pixels` on each side.
    public func padded(by fraction: Double, plus pixels: Double = 0) -> RedactionShape {
        switch self {
        case .ellipse(let rect):
            return .ellipse(rect.expanded(dx: rect.width * fraction + pixels, dy: rect.height * fraction + pixels))
        case .polygon(let points):
            guard !points.isEmpty else { return self }
            let center = PixelPoint(
                x: points.map(\.x).reduce(0, +) / Double(points.count), y: points.map(\.y).reduce(0, +) / Double(points.count))
            return .polygon(
                points.map { point in
                    let offset = point - center
                    let length = max(offset.distance(to: PixelPoint(x: 0, y: 0)), 1e-9)
                    // Each corner moves out along its ray from the centre: by the fraction of
                    // the full width (twice the half-diagonal) and the fixed pixels.
                    return center + offset * (1 + 2 * fraction + pixels / length)
                })
        }
    }

    /// The shape `fraction` (0…1) of the way to `other`; a shape of another kind or corner
    /// count is taken whole from whichever is nearer.
    public func interpolated(to other: RedactionShape, _ fraction: Double) -> RedactionShape {
        switch (self, other) {
        case (.ellipse(let a), .ellipse(let b)):
            return .ellipse(
                PixelRect(
                    x: a.x + (b.x - a.x) * fraction, y: a.y + (b.y - a.y) * fraction,
                    width: a.width + (b.width - a.width) * fraction, height: a.height + (b.height - a.height) * fraction))
        case (.polygon(let a), .polygon(let b)) where a.count == b.count:
            return .polygon(zip(a, b).map { $0 + ($1 - $0) * fraction })
        default:
            return fraction < 0.5 ? self : other
        }
    }

    /// The shape moved by `offset`.
    public func translated(by offset: PixelPoint) -> RedactionShape {
        switch self {
        case .ellipse(let rect): .ellipse(PixelRect(x: rect.x + offset.x, y: rect.y + offset.y, width: rect.width, height: rect.height))
        case .polygon(let points): .polygon(points.map { $0 + offset })
        }
    }

    /// The shape's outline mapped by `transform` (a quarter-turn or any point map; an ellipse
    /// stays axis-aligned, which a quarter turn keeps exact).
    func mapped(_ transform: (PixelPoint) -> PixelPoint) -> RedactionShape {
        switch self {
        case .ellipse(let rect):
            let corners = Quad(rect).corners.map(transform)
            return .ellipse(PixelRect(enclosing: corners))
        case .polygon(let points):
            return .polygon(points.map(transform))
        }
    }
}
