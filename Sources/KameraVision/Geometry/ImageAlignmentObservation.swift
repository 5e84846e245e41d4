import KameraCore

/// How to move the targeted image onto the reference by a shift, like Vision's
/// `ImageTranslationAlignmentObservation`.
public struct ImageTranslationAlignmentObservation: Sendable, Hashable {
    /// The shift mapping the targeted image's pixels onto the reference's, in pixels with a
    /// top-left origin: x_reference = x_targeted + tx (Vision's `alignmentTransform`).
    public var alignmentTransform: PixelPoint
    /// How sharply the images correlate at that shift (0…1); low when they share little.
    public var confidence: Float

    public init(alignmentTransform: PixelPoint, confidence: Float) {
        self.alignmentTransform = alignmentTransform
        self.confidence = confidence
    }
}

/// How to warp the targeted image onto the reference, like Vision's
/// `ImageHomographicAlignmentObservation`.
public struct ImageHomographicAlignmentObservation: Sendable, Hashable {
    /// The homography mapping the targeted image's pixels onto the reference's, in pixels
    /// with a top-left origin (Vision's `warpTransform`).
    public var warpTransform: PerspectiveTransform
    /// The share of matched features the warp explains (0…1), or the aligned images'
    /// correlation when they were too plain for features; 0 when nothing matched.
    public var confidence: Float

    public init(warpTransform: PerspectiveTransform, confidence: Float) {
        self.warpTransform = warpTransform
        self.confidence = confidence
    }
}
