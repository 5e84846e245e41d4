import Dispatch
import Foundation
import Kamera
import Synchronization

/// Encodes frames on a thread of its own, a few frames behind the caller, so that H.264
/// encoding overlaps the next frame's detection (on two cores it is a quarter of the work).
/// A failed write is reported by the next `append` or by `finish`.
final class BackgroundMovieWriter: @unchecked Sendable {
    // The recorder is touched only on `queue` once created (hence unchecked Sendable).
    private let recorder: MovieRecorder
    private let queue = DispatchQueue(label: "kamera.movie-writer")
    private let slots: DispatchSemaphore
    private let failure = Mutex<(any Error)?>(nil)
    let width: Int, height: Int

    /// - Parameter depth: frames that may wait for the encoder (memory: that many frames).
    init(_ recorder: MovieRecorder, depth: Int = 3) {
        self.recorder = recorder
        (width, height) = (recorder.settings.width, recorder.settings.height)
        slots = DispatchSemaphore(value: depth)
    }

    /// Queues a frame; blocks while `depth` frames are waiting.
    /// - Throws: the error of an earlier write.
    func append(_ frame: PixelBuffer, at time: Double) throws {
        if let error = failure.withLock({ $0 }) { throw error }
        slots.wait()
        queue.async { [self] in
            defer { slots.signal() }
            guard failure.withLock({ $0 == nil }) else { return }
            do {
                _ = try recorder.append(frame, at: time)
            } catch {
                failure.withLock { $0 = error }
            }
        }
    }

    /// Waits for the queued frames and finishes the movie.
    /// - Throws: the error of any write, or of finishing.
    func finish() throws -> RecordingSummary {
        try queue.sync {
            if let error = failure.withLock({ $0 }) { throw error }
            return try recorder.finish()
        }
    }
}
