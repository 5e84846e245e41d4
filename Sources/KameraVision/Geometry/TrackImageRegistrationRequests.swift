import KameraCore
import Synchronization

/// Frame-to-frame registration, like Vision's `TrackTranslationalImageRegistrationRequest`:
/// perform it on each frame of a stream in turn; each result maps the previous frame's pixels
/// onto the current one's. The first frame gives nil (nothing to compare with yet).
public final class TrackTranslationalImageRegistrationRequest: ImageRequest {
    public var regionOfInterest: NormalizedRect {
        get { region.withLock { $0 } }
        set { region.withLock { $0 = newValue } }
    }
    private let region = Mutex(NormalizedRect.fullImage)
    private let previous = Mutex<PixelBuffer?>(nil)

    public init() {}

    public func perform(in context: ImageAnalysisContext) throws -> ImageTranslationAlignmentObservation? {
        let frame = try context.region(regionOfInterest).grayscale
        guard
            let last = previous.withLock({ stored in
                defer { stored = frame }; return stored
            })
        else { return nil }
        return try ImageRegistration.translation(reference: frame, moving: last)
    }
}

/// Frame-to-frame perspective registration, like Vision's
/// `TrackHomographicImageRegistrationRequest`: each result's warp maps the previous frame's
/// pixels onto the current one's; nil for the first frame.
public final class TrackHomographicImageRegistrationRequest: ImageRequest {
    public var regionOfInterest: NormalizedRect {
        get { region.withLock { $0 } }
        set { region.withLock { $0 = newValue } }
    }
    private let region = Mutex(NormalizedRect.fullImage)
    private let previous = Mutex<PixelBuffer?>(nil)

    public init() {}

    public func perform(in context: ImageAnalysisContext) throws -> ImageHomographicAlignmentObservation? {
        let frame = try context.region(regionOfInterest).grayscale
        guard
            let last = previous.withLock({ stored in
                defer { stored = frame }; return stored
            })
        else { return nil }
        return try ImageRegistration.homography(reference: frame, moving: last)
    }
}
