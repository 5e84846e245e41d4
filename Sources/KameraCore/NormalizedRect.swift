/// A rectangle in Vision's normalized image space: 0…1, origin at the lower-left, so
/// `y` is the bottom edge.
public struct NormalizedRect: Sendable, Hashable, Codable {
    public var x: Double
    public var y: Double
    public var width: Double
    public var height: Double

    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    public var minX: Double { x }
    public var minY: Double { y }
    public var maxX: Double { x + width }
    public var maxY: Double { y + height }

    /// The pixel rectangle (top-left origin) this covers in an image of `size`.
    public func toImageCoordinates(_ size: Size) -> PixelRect {
        PixelRect(x: x * size.width, y: (1 - maxY) * size.height,
                  width: width * size.width, height: height * size.height)
    }
}
