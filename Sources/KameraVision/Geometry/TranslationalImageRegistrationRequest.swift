import KameraCore

/// The shift that aligns `targetedImage` with the image the request runs on, like Vision's
/// `TranslationalImageRegistrationRequest`. Survives brightness changes, blur and a partial
/// overlap (phase correlation, coarse to fine).
public struct TranslationalImageRegistrationRequest: ImageRequest {
    /// The image to align with the reference (the one the request is performed on).
    public var targetedImage: Image
    /// The part of the reference to analyse (normalized, lower-left origin); the transform is
    /// then relative to its pixels. Default: the whole image.
    public var regionOfInterest = NormalizedRect.fullImage

    public init(targetedImage: Image) {
        self.targetedImage = targetedImage
    }

    public func perform(in context: ImageAnalysisContext) throws -> ImageTranslationAlignmentObservation {
        let context = try context.region(regionOfInterest)
        return try ImageRegistration.translation(
            reference: context.grayscale, moving: targetedImage.pixelBuffer.converted(to: .gray8))
    }
}
