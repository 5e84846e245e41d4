/// A point in Vision's normalized image space: 0…1 on both axes, origin at the lower-left.
public struct NormalizedPoint: Sendable, Hashable, Codable {
    public var x, y: Double

    public init(x: Double, y: Double) { (self.x, self.y) = (x, y) }

    /// The pixel position (top-left origin) of this point in an image of `size`.
    public func toImageCoordinates(_ size: Size) -> PixelPoint {
        PixelPoint(x: x * size.width, y: (1 - y) * size.height)
    }

    /// A point normalized to `regionOfInterest` placed in the full image of `imageSize`: pixels,
    /// top-left origin. Vision's `toImageCoordinates(from:imageSize:origin:)`.
    public func toImageCoordinates(from regionOfInterest: NormalizedRect, imageSize: Size) -> PixelPoint {
        NormalizedPoint(x: regionOfInterest.x + x * regionOfInterest.width, y: regionOfInterest.y + y * regionOfInterest.height)
            .toImageCoordinates(imageSize)
    }
}
