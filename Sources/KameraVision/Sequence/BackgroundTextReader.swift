import Dispatch
import KameraCore
import Synchronization

/// Finds text on a stream's frames at its own pace: at most one detection runs, on a thread
/// of its own, and a frame offered while it runs is not waited for (PP-OCRv4 takes tens of
/// milliseconds a 640×480 frame, Tesseract's layout pass 1.5–3.6 s, where faces and codes
/// take a few; waiting would stall the stream). Frames are searched at their own size, and a
/// line seen before, unchanged, keeps its reading (`SceneLineMemory`).
final class BackgroundTextReader: Sendable {
    private struct State {
        var running = false
        var newest: FoundText?
        var failure: KameraError?
    }

    private let request: DetectTextRectanglesRequest
    private let state = Mutex(State())
    /// Entered while a detection runs, so a caller reading a file can wait for it.
    private let running = DispatchGroup()

    init(_ request: DetectTextRectanglesRequest) {
        var request = request
        request.enlargesSmallImages = false
        request.lineMemory = SceneLineMemory()
        self.request = request
    }

    /// Starts a detection on `frame` when none is running, and returns the newest finished one.
    /// - Throws: the last detection's failure (missing language data, say), once.
    func offer(_ frame: PixelBuffer, at time: Double) throws -> FoundText? {
        let (start, newest, failure) = state.withLock { state in
            defer {
                state.running = true
                state.failure = nil
            }
            return (!state.running, state.newest, state.failure)
        }
        if let failure { throw failure }
        if start {
            let request = self.request
            running.enter()
            DispatchQueue.global(qos: .utility).async {
                defer { self.running.leave() }
                let result = Result { try request.perform(in: ImageAnalysisContext(Image(pixelBuffer: frame))) }
                self.state.withLock { state in
                    state.running = false
                    switch result {
                    case .success(let lines): state.newest = FoundText(frameTime: time, lines: lines)
                    case .failure(let error as KameraError): state.failure = error
                    case .failure(let error): state.failure = KameraError.invalidArgument("text detection failed: \(error)")
                    }
                }
            }
        }
        return newest
    }

    /// Blocks until the running detection (if any) has finished.
    func waitUntilIdle() { running.wait() }
}
