/// A point in pixel coordinates: origin at the top-left corner of the image, y down.
public struct PixelPoint: Sendable, Hashable, Codable {
    public var x, y: Double

    public init(x: Double, y: Double) { (self.x, self.y) = (x, y) }

    /// The same point in Vision's normalized, lower-left-origin space of an image of `size`.
    public func normalized(in size: Size) -> NormalizedPoint {
        NormalizedPoint(x: x / size.width, y: 1 - y / size.height)
    }

    public static func + (a: PixelPoint, b: PixelPoint) -> PixelPoint { PixelPoint(x: a.x + b.x, y: a.y + b.y) }
    public static func - (a: PixelPoint, b: PixelPoint) -> PixelPoint { PixelPoint(x: a.x - b.x, y: a.y - b.y) }
    public static func * (a: PixelPoint, s: Double) -> PixelPoint { PixelPoint(x: a.x * s, y: a.y * s) }

    /// Euclidean distance to `other`.
    public func distance(to other: PixelPoint) -> Double {
        ((x - other.x) * (x - other.x) + (y - other.y) * (y - other.y)).squareRoot()
    }
}
