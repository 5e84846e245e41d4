import KameraCore

/// A person's box, like Vision's `HumanObservation`.
public struct HumanObservation: Sendable {
    /// Normalized, lower-left origin.
    public let boundingBox: NormalizedRect
    /// The box in the region's pixels, top-left origin.
    public let pixelBox: PixelRect
    /// Whether the box holds the upper body only (the request's setting).
    public let upperBodyOnly: Bool
    public let confidence: Float
    public let imageSize: Size
}
