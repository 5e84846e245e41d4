import KameraCore
import Synchronization

/// Frame-to-frame registration, like Vision's `TrackTranslationalImageRegistrationRequest`:
/// perform it on each frame of a stream in turn; each result maps the previous frame's pixels
/// onto the current one's. The first frame gives nil (nothing to compare with yet).
public final class TrackTranslationalImageRegistrationRequest: ImageRequest {
    private let history = FrameHistory()
    public var regionOfInterest: NormalizedRect {
        get { history.region }
        set { history.region = newValue }
    }

    public init() {}

    public func perform(in context: ImageAnalysisContext) throws -> ImageTranslationAlignmentObservation? {
        try history.advance(to: context).map { try ImageRegistration.translation(reference: $0.current, moving: $0.previous) }
    }
}

/// Frame-to-frame perspective registration, like Vision's
/// `TrackHomographicImageRegistrationRequest`: each result's warp maps the previous frame's
/// pixels onto the current one's; nil for the first frame.
public final class TrackHomographicImageRegistrationRequest: ImageRequest {
    private let history = FrameHistory()
    public var regionOfInterest: NormalizedRect {
        get { history.region }
        set { history.region = newValue }
    }

    public init() {}

    public func perform(in context: ImageAnalysisContext) throws -> ImageHomographicAlignmentObservation? {
        try history.advance(to: context).map { try ImageRegistration.homography(reference: $0.current, moving: $0.previous) }
    }
}

/// The region of interest and the last frame of a frame-to-frame request.
final class FrameHistory: Sendable {
    private let regionValue = Mutex(NormalizedRect.fullImage)
    private let previous = Mutex<PixelBuffer?>(nil)

    var region: NormalizedRect {
        get { regionValue.withLock { $0 } }
        set { regionValue.withLock { $0 = newValue } }
    }

    /// The context's frame (its region, gray) with the frame before it, which it replaces;
    /// nil for the first frame.
    func advance(to context: ImageAnalysisContext) throws -> (current: PixelBuffer, previous: PixelBuffer)? {
        let frame = try context.region(region).grayscale
        return previous.withLock { stored in
            defer { stored = frame }
            return stored.map { (frame, $0) }
        }
    }
}
