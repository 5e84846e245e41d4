import KameraCore
import Synchronization

/// The state a tracking request carries between frames: the target as last given by the
/// caller, and the tracker once started. The frame a new target is given on starts the
/// tracker (and reports the target as given); later frames follow it.
struct TrackingSession: ~Copyable {
    /// Internal, not private: a private type here crashes the compiler's debug (per-file)
    /// build when the requests in other files use the session (Swift 6.3.1).
    struct State {
        var start: Quad
        var startSize: Size
        var tracker: QuadTracker?
    }

    private let state: Mutex<State>

    init(start: Quad, imageSize: Size) {
        state = Mutex(State(start: start, startSize: imageSize, tracker: nil))
    }

    /// Replaces the target (re-detection by the caller); the next frame starts from it.
    func restart(at start: Quad, imageSize: Size) {
        state.withLock { $0 = State(start: start, startSize: imageSize, tracker: nil) }
    }

    /// Drops the tracker (Vision's `isLastFrame`): the next frame starts over from the target.
    func reset() {
        state.withLock { $0.tracker = nil }
    }

    /// The target in `frame`: as given on the first frame, tracked on the later ones.
    func track(in frame: PixelBuffer, level: TrackingLevel, rectangle: Bool) throws -> (corners: Quad, confidence: Float) {
        try state.withLock { state in
            if let tracker = state.tracker { return try tracker.update(frame) }
            guard state.startSize == frame.size else {
                throw KameraError.invalidArgument(
                    "the target was given in a \(Int(state.startSize.width))×\(Int(state.startSize.height)) image, the frame is \(frame.width)×\(frame.height)"
                )
            }
            state.tracker = try QuadTracker(frame: frame, corners: state.start, level: level, rectangle: rectangle)
            return (state.start, 1)
        }
    }
}
