import KameraCore
import Synchronization

/// Follows an object from frame to frame, like Vision's `TrackObjectRequest`: give it the
/// object's box on the frame it was found in, then perform it on that frame and each later
/// one in turn. Each result is the object's box in that frame and a confidence that falls
/// (below about 0.45) when the object is covered or has left, so callers can re-detect and
/// set `inputObservation` again. A lost object that comes back is found again by itself.
public final class TrackObjectRequest: ImageRequest {
    private struct Settings {
        var regionOfInterest = NormalizedRect.fullImage
        var trackingLevel = TrackingLevel.accurate
        var inputObservation: DetectedObjectObservation
        var isLastFrame = false
    }

    private let settings: Mutex<Settings>
    private let session: TrackingSession

    /// The part of each frame to analyse (normalized, lower-left origin); boxes are relative
    /// to it. Default: the whole frame.
    public var regionOfInterest: NormalizedRect {
        get { settings.withLock { $0.regionOfInterest } }
        set { settings.withLock { $0.regionOfInterest = newValue } }
    }

    /// Default: `.accurate`, as Vision.
    public var trackingLevel: TrackingLevel {
        get { settings.withLock { $0.trackingLevel } }
        set { settings.withLock { $0.trackingLevel = newValue } }
    }

    /// The object to follow, on the next frame performed. Setting it (after a re-detection)
    /// starts the tracker again from this box on that frame.
    public var inputObservation: DetectedObjectObservation {
        get { settings.withLock { $0.inputObservation } }
        set {
            settings.withLock { $0.inputObservation = newValue }
            session.restart(at: Quad(newValue.pixelBox), imageSize: newValue.imageSize)
        }
    }

    /// Set on the last frame: the tracker's state is released after it.
    public var isLastFrame: Bool {
        get { settings.withLock { $0.isLastFrame } }
        set { settings.withLock { $0.isLastFrame = newValue } }
    }

    public init(detectedObject: DetectedObjectObservation) {
        settings = Mutex(Settings(inputObservation: detectedObject))
        session = TrackingSession(start: Quad(detectedObject.pixelBox), imageSize: detectedObject.imageSize)
    }

    public func perform(in context: ImageAnalysisContext) throws -> DetectedObjectObservation {
        let current = settings.withLock { $0 }
        try TrackingTarget.validate(Quad(current.inputObservation.pixelBox), imageSize: current.inputObservation.imageSize)
        let frame = try context.region(current.regionOfInterest).grayscale
        let (corners, confidence) = try session.track(in: frame, level: current.trackingLevel, rectangle: false)
        if current.isLastFrame { session.reset() }
        return DetectedObjectObservation(pixelBox: corners.boundingRect, imageSize: frame.size, confidence: confidence)
    }
}
