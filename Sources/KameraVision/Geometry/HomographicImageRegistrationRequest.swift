import KameraCore

/// The perspective warp that aligns `targetedImage` with the image the request runs on, like
/// Vision's `HomographicImageRegistrationRequest`: features matched at any rotation and
/// scale and fitted with MAGSAC to a fraction of a pixel (enhanced correlation when the images
/// are too plain for features).
public struct HomographicImageRegistrationRequest: ImageRequest {
    /// The image to align with the reference (the one the request is performed on).
    public var targetedImage: Image
    /// The part of the reference to analyse (normalized, lower-left origin); the transform is
    /// then relative to its pixels. Default: the whole image.
    public var regionOfInterest = NormalizedRect.fullImage

    public init(targetedImage: Image) {
        self.targetedImage = targetedImage
    }

    public func perform(in context: ImageAnalysisContext) throws -> ImageHomographicAlignmentObservation {
        let context = try context.region(regionOfInterest)
        return try ImageRegistration.homography(
            reference: context.grayscale, moving: targetedImage.pixelBuffer.converted(to: .gray8))
    }
}
