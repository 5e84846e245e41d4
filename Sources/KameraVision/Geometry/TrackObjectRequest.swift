import KameraCore

/// Follows an object from frame to frame, like Vision's `TrackObjectRequest`: give it the
/// object's box on the frame it was found in, then perform it on that frame and each later
/// one in turn. Each result is the object's box in that frame and a confidence that falls
/// (below about 0.45) when the object is covered or has left, so callers can re-detect and
/// set `inputObservation` again. A lost object that comes back is found again by itself.
public final class TrackObjectRequest: TrackingRequest<DetectedObjectObservation>, ImageRequest, @unchecked Sendable {
    public init(detectedObject: DetectedObjectObservation) {
        super.init(target: detectedObject, isRectangle: false) { (Quad($0.pixelBox), $0.imageSize) }
    }

    public func perform(in context: ImageAnalysisContext) throws -> DetectedObjectObservation {
        let found = try track(in: context)
        return DetectedObjectObservation(pixelBox: found.corners.boundingRect, imageSize: found.frameSize, confidence: found.confidence)
    }
}
