import Foundation

/// A movie's frames decoded on a thread of their own, up to `capacity` ahead of the code
/// that takes them, so decoding overlaps with the work done on each frame (the two passes
/// of `MovieStabilizer`, `kamera redact`). Call ``cancel()`` when leaving before the end: the
/// thread holds the reader until it stops. Memory: at most `capacity` decoded frames.
public final class FramePrefetcher: @unchecked Sendable {
    // @unchecked: `reader` is touched only by the prefetch thread once `init` has started it,
    // and everything else only under `condition`.
    private let reader: MovieReader
    private let capacity: Int
    private let condition = NSCondition()
    private var frames: [VideoFrame] = []
    private var ended = false
    private var cancelled = false
    private var failure: (any Error)?

    /// Starts decoding `reader`'s frames on a new thread; `reader` must not be used elsewhere after.
    public init(_ reader: MovieReader, capacity: Int = 8) {
        (self.reader, self.capacity) = (reader, max(1, capacity))
        let thread = Thread { [self] in run() }
        thread.name = "kamera frame prefetch"
        thread.start()
    }

    /// The next frame, waiting for it; nil at the end.
    /// - Throws: the reader's error, once the frames before it have been taken.
    public func next() throws -> VideoFrame? {
        condition.lock()
        defer { condition.unlock() }
        while frames.isEmpty && !ended { condition.wait() }
        if !frames.isEmpty {
            condition.broadcast()
            return frames.removeFirst()
        }
        if let failure { throw failure }
        return nil
    }

    /// Stops the thread (frames not yet taken are dropped).
    public func cancel() {
        condition.lock()
        cancelled = true
        condition.broadcast()
        condition.unlock()
    }

    private func run() {
        while true {
            condition.lock()
            while frames.count >= capacity && !cancelled { condition.wait() }
            let stop = cancelled
            condition.unlock()
            if stop { return }
            let frame: VideoFrame?, error: (any Error)?
            do {
                (frame, error) = (try reader.nextFrame(), nil)
            } catch let caught {
                (frame, error) = (nil, caught)
            }
            condition.lock()
            if let frame { frames.append(frame) } else { (ended, failure) = (true, error) }
            condition.broadcast()
            condition.unlock()
            if frame == nil { return }
        }
    }
}
