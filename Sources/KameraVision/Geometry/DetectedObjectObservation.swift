import KameraCore

/// An object's box in an image, like Vision's `DetectedObjectObservation`: what starts an
/// object tracker and what it reports frame by frame.
public struct DetectedObjectObservation: Sendable, Hashable {
    /// The box in pixels of the analysed image, top-left origin.
    public var pixelBox: PixelRect
    /// The analysed image's size.
    public var imageSize: Size
    /// 1 for a box given by the caller; a tracker's confidence that the object is there.
    public var confidence: Float

    public init(pixelBox: PixelRect, imageSize: Size, confidence: Float = 1) {
        self.pixelBox = pixelBox
        self.imageSize = imageSize
        self.confidence = confidence
    }

    /// From a normalized box (lower-left origin, Vision's convention) in an image of `imageSize`.
    public init(boundingBox: NormalizedRect, imageSize: Size, confidence: Float = 1) {
        self.init(pixelBox: boundingBox.toImageCoordinates(imageSize), imageSize: imageSize, confidence: confidence)
    }

    /// The box normalized, lower-left origin (Vision's `boundingBox`).
    public var boundingBox: NormalizedRect { pixelBox.normalized(in: imageSize) }
}
