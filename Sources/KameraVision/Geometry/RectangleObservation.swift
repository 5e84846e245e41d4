import KameraCore

/// A rectangle seen in perspective (a document, card, screen or sign), like Vision's
/// `RectangleObservation`: its four corners normalized (0…1, lower-left origin) and in pixels
/// (top-left origin), named as the rectangle appears on screen.
public struct RectangleObservation: Sendable, Hashable {
    /// The corners in pixels of the analysed image, clockwise on screen from the one nearest
    /// its top-left; continuous coordinates (pixel centres at +0.5).
    public var pixelCorners: Quad
    /// Size of the image the rectangle was found in.
    public var imageSize: Size
    /// How much of the outline has an edge under it (0…1), as Vision's confidence.
    public var confidence: Float

    public init(pixelCorners: Quad, imageSize: Size, confidence: Float) {
        self.pixelCorners = pixelCorners
        self.imageSize = imageSize
        self.confidence = confidence
    }

    public var topLeft: NormalizedPoint { pixelCorners.topLeft.normalized(in: imageSize) }
    public var topRight: NormalizedPoint { pixelCorners.topRight.normalized(in: imageSize) }
    public var bottomRight: NormalizedPoint { pixelCorners.bottomRight.normalized(in: imageSize) }
    public var bottomLeft: NormalizedPoint { pixelCorners.bottomLeft.normalized(in: imageSize) }
    /// Axis-aligned bounds in pixels (top-left origin).
    public var pixelBounds: PixelRect { pixelCorners.boundingRect }
    /// Axis-aligned bounds normalized like Vision (lower-left origin).
    public var boundingBox: NormalizedRect { pixelBounds.normalized(in: imageSize) }
}
