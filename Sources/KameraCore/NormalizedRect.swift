/// A rectangle in Vision's normalized image space: 0…1, origin at the lower-left, so
/// `y` is the bottom edge.
public struct NormalizedRect: Sendable, Hashable, Codable {
    public var x, y, width, height: Double

    public init(x: Double, y: Double, width: Double, height: Double) {
        (self.x, self.y, self.width, self.height) = (x, y, width, height)
    }

    public var minX: Double { x }
    public var minY: Double { y }
    public var maxX: Double { x + width }
    public var maxY: Double { y + height }

    /// The pixel rectangle (top-left origin) this covers in an image of `size`.
    public func toImageCoordinates(_ size: Size) -> PixelRect {
        PixelRect(
            x: x * size.width, y: (1 - maxY) * size.height,
            width: width * size.width, height: height * size.height)
    }

    /// The whole image: Vision's default region of interest.
    public static let fullImage = NormalizedRect(x: 0, y: 0, width: 1, height: 1)

    /// Whether this is a region Vision accepts: inside 0…1 with a positive area.
    public var isValidRegionOfInterest: Bool {
        width > 0 && height > 0 && x >= 0 && y >= 0 && maxX <= 1 + 1e-9 && maxY <= 1 + 1e-9
    }

    /// A rectangle normalized to `regionOfInterest` (as results of a request with that region
    /// are) placed in the full image of `imageSize`: pixels, top-left origin. Vision's
    /// `toImageCoordinates(from:imageSize:origin:)`.
    public func toImageCoordinates(from regionOfInterest: NormalizedRect, imageSize: Size) -> PixelRect {
        NormalizedRect(
            x: regionOfInterest.x + x * regionOfInterest.width, y: regionOfInterest.y + y * regionOfInterest.height,
            width: width * regionOfInterest.width, height: height * regionOfInterest.height
        )
        .toImageCoordinates(imageSize)
    }

    /// A pixel rectangle (top-left origin) of an image of `imageSize`, normalized to
    /// `regionOfInterest`. Vision's `init(imageRect:in:normalizedTo:)`.
    public init(imageRect: PixelRect, in imageSize: Size, normalizedTo regionOfInterest: NormalizedRect) {
        let full = imageRect.normalized(in: imageSize)
        self.init(
            x: (full.x - regionOfInterest.x) / regionOfInterest.width, y: (full.y - regionOfInterest.y) / regionOfInterest.height,
            width: full.width / regionOfInterest.width, height: full.height / regionOfInterest.height)
    }
}
