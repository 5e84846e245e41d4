import KameraCore

/// Follows a flat rectangle (a page, card, screen, sign) by its corners, like Vision's
/// `TrackRectangleRequest`: give it the rectangle found on a frame, perform it on that frame
/// and each later one. Its corners follow the rectangle's perspective; the confidence falls
/// when it is covered or gone, and it is found again when it comes back.
public final class TrackRectangleRequest: TrackingRequest<RectangleObservation>, ImageRequest, @unchecked Sendable {
    public init(detectedRectangle: RectangleObservation) {
        super.init(target: detectedRectangle, isRectangle: true) { ($0.pixelCorners, $0.imageSize) }
    }

    public func perform(in context: ImageAnalysisContext) throws -> RectangleObservation {
        let found = try track(in: context)
        return RectangleObservation(pixelCorners: found.corners, imageSize: found.frameSize, confidence: found.confidence)
    }
}
