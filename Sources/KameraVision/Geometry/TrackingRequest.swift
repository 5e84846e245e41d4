import KameraCore
import Synchronization

/// What Vision's tracking requests share (`VNTrackingRequest`): the target to follow
/// (`inputObservation`, whose outline starts the tracker again when set), the tracking level,
/// the region of interest and `isLastFrame`. `TrackObjectRequest` follows a box,
/// `TrackRectangleRequest` a rectangle's corners in perspective.
///
/// `@unchecked Sendable`: a class open to its two subclasses cannot be checked, and every
/// stored property is immutable or behind the lock.
public class TrackingRequest<Observation: Sendable>: @unchecked Sendable {
    private struct Settings {
        var regionOfInterest = NormalizedRect.fullImage
        var trackingLevel = TrackingLevel.accurate
        var inputObservation: Observation
        var isLastFrame = false
    }

    private let settings: Mutex<Settings>
    private let session: TrackingSession
    /// The target's outline in pixels and the size of the image it was found in.
    private let outline: @Sendable (Observation) -> (quad: Quad, imageSize: Size)
    /// Whether the target is a flat rectangle seen in perspective (its corners, not a box).
    private let isRectangle: Bool

    init(target: Observation, isRectangle: Bool, outline: @escaping @Sendable (Observation) -> (quad: Quad, imageSize: Size)) {
        let start = outline(target)
        settings = Mutex(Settings(inputObservation: target))
        session = TrackingSession(start: start.quad, imageSize: start.imageSize)
        (self.outline, self.isRectangle) = (outline, isRectangle)
    }

    /// The part of each frame to analyse (normalized, lower-left origin); results are relative
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

    /// The target to follow, on the next frame performed. Setting it (after a re-detection)
    /// starts the tracker again from it on that frame.
    public var inputObservation: Observation {
        get { settings.withLock { $0.inputObservation } }
        set {
            settings.withLock { $0.inputObservation = newValue }
            let start = outline(newValue)
            session.restart(at: start.quad, imageSize: start.imageSize)
        }
    }

    /// Set on the last frame: the tracker's state is released after it.
    public var isLastFrame: Bool {
        get { settings.withLock { $0.isLastFrame } }
        set { settings.withLock { $0.isLastFrame = newValue } }
    }

    /// Follows the target into the context's frame: its corners there (in the region's
    /// pixels), the confidence, and the region's size.
    func track(in context: ImageAnalysisContext) throws -> (corners: Quad, confidence: Float, frameSize: Size) {
        let current = settings.withLock { $0 }
        let start = outline(current.inputObservation)
        try TrackingTarget.validate(start.quad, imageSize: start.imageSize)
        let frame = try context.region(current.regionOfInterest).grayscale
        let (corners, confidence) = try session.track(in: frame, level: current.trackingLevel, rectangle: isRectangle)
        if current.isLastFrame { session.reset() }
        return (corners, confidence, frame.size)
    }
}
