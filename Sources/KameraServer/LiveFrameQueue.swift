import Synchronization

/// The frames of one live source waiting for analysis: the newest only. A frame that arrives
/// while another waits replaces it (latest frame wins) and is counted as dropped, so a slow
/// analysis shows older results less often instead of falling further behind.
final class LiveFrameQueue: Sendable {
    /// The frames, in order, each once; ends with `finish`.
    let frames: AsyncStream<LiveFrame>
    private let input: AsyncStream<LiveFrame>.Continuation
    private let droppedCount = Mutex(0)

    init() {
        (frames, input) = AsyncStream.makeStream(of: LiveFrame.self, bufferingPolicy: .bufferingNewest(1))
    }

    /// Frames replaced by a newer one so far.
    var dropped: Int { droppedCount.withLock { $0 } }

    /// Queues `frame`; returns the id of the frame it replaced, if any.
    @discardableResult
    func yield(_ frame: LiveFrame) -> UInt32? {
        guard case .dropped(let replaced) = input.yield(frame) else { return nil }
        droppedCount.withLock { $0 += 1 }
        return replaced.id
    }

    /// No more frames: the analysis ends after the one waiting.
    func finish() { input.finish() }
}
