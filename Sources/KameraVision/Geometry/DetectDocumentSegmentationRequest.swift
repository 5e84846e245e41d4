import KameraCore

/// Finds the document in a photo (a page, receipt, card or screen), like Vision's
/// `DetectDocumentSegmentationRequest`: at most one observation, its four corners. Flatten it
/// with `PixelBuffer.perspectiveCorrected(to:width:height:whitensPaper:blackOutside:)`.
public struct DetectDocumentSegmentationRequest: ImageRequest {
    /// The part of the image to analyse (normalized, lower-left origin); results are relative
    /// to it, as in Vision. Default: the whole image.
    public var regionOfInterest = NormalizedRect.fullImage

    public init() {}

    public func perform(in context: ImageAnalysisContext) throws -> [RectangleObservation] {
        let context = try context.region(regionOfInterest)
        // A page seen at an angle: long receipts to squares, strong perspective, and most of
        // its outline on an edge; ranked by size so the page wins over what is printed on it.
        return try RectangleFinder(
            minimumAspectRatio: 0.2, maximumAspectRatio: 1, quadratureTolerance: 40, minimumSize: 0.15,
            minimumConfidence: 0.5, maximumObservations: 1, prefersLarge: true
        ).find(in: context)
    }
}
