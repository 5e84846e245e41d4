import KameraCore
import Synchronization

/// Follows a flat rectangle (a page, card, screen, sign) by its corners, like Vision's
/// `TrackRectangleRequest`: give it the rectangle found on a frame, perform it on that frame
/// and each later one. Its corners follow the rectangle's perspective; the confidence falls
/// when it is covered or gone, and it is found again when it comes back.
public final class TrackRectangleRequest: ImageRequest {
    private struct Settings {
        var regionOfInterest = NormalizedRect.fullImage
        var trackingLevel = TrackingLevel.accurate
        var inputObservation: RectangleObservation
        var isLastFrame = false
    }

    private let settings: Mutex<Settings>
    private let session: TrackingSession

    /// The part of each frame to analyse (normalized, lower-left origin); corners are relative
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

    /// The rectangle to follow, on the next frame performed; setting it restarts the tracker.
    public var inputObservation: RectangleObservation {
        get { settings.withLock { $0.inputObservation } }
        set {
            settings.withLock { $0.inputObservation = newValue }
            session.restart(at: newValue.pixelCorners, imageSize: newValue.imageSize)
        }
    }

    /// Set on the last frame: the tracker's state is released after it.
    public var isLastFrame: Bool {
        get { settings.withLock { $0.isLastFrame } }
        set { settings.withLock { $0.isLastFrame = newValue } }
    }

    public init(detectedRectangle: RectangleObservation) {
        settings = Mutex(Settings(inputObservation: detectedRectangle))
        session = TrackingSession(start: detectedRectangle.pixelCorners, imageSize: detectedRectangle.imageSize)
    }

    public func perform(in context: ImageAnalysisContext) throws -> RectangleObservation {
        let current = settings.withLock { $0 }
        try TrackingTarget.validate(current.inputObservation.pixelCorners, imageSize: current.inputObservation.imageSize)
        let frame = try context.region(current.regionOfInterest).grayscale
        let (corners, confidence) = try session.track(in: frame, level: current.trackingLevel, rectangle: true)
        if current.isLastFrame { session.reset() }
        return RectangleObservation(pixelCorners: corners, imageSize: frame.size, confidence: confidence)
    }
}
