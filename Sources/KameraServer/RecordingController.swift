import Foundation
import Kamera
import Logging
import Synchronization

/// The recording of one live source — a page's frames or a server camera — from the request
/// to the completed library entry: at most one at a time, listed (as being written) before its
/// first frame so a crash cannot lose it, written frame by frame on the source's own thread
/// (`RecordingWriter`), ended by a stop, a limit, the disk or the source going away with a
/// typed `RecordingEndReason`, and its end announced to the source (`onEnd`) and to whoever
/// asked it to stop.
///
/// Not an actor: frames arrive on a blocking capture thread or an analysis thread, which must
/// not wait for an actor hop per frame. The writer has a lock of its own that only the frame
/// thread takes, so a request never waits for a frame to be encoded.
final class RecordingController: Sendable {
    /// How a recording ended: its completed entry (nil when it ended before its first frame and
    /// was removed) and why.
    typealias End = (entry: RecordingEntry?, reason: RecordingEndReason)

    private struct Request {
        var id: String
        var url: URL
        var limits: RecordingLimits
    }

    private struct State {
        /// Asked for, or being written.
        var request: Request?
        var stopAsked = false
        var recordedSeconds: Double = 0
        /// Callers of `stop` waiting for the completed entry, by recording.
        var endWaiters: [String: [AsyncStream<End>.Continuation]] = [:]
        /// Entries being completed (awaited by `concluded`).
        var concluding: [UUID: Task<Void, Never>] = [:]
    }

    private let source: String
    private let label: String
    private let stopHint: String
    private let library: ResultsLibrary
    private let logger: Logger
    private let metrics: ServerMetrics?
    private let onEnd: @Sendable (End) async -> Void
    private let state = Mutex(State())
    private let writer = Mutex<RecordingWriter?>(nil)

    /// - Parameters:
    ///   - source: what is recorded, as the entry lists it (`browser`, a camera's path).
    ///   - label: the source in error messages ("camera 0").
    ///   - stopHint: how a client stops a recording, for the `alreadyRecording` error.
    ///   - metrics: where recordings count as active, and their bytes.
    ///   - onEnd: called once for every recording that ends, after its entry is complete.
    init(
        source: String, label: String, stopHint: String, library: ResultsLibrary, logger: Logger, metrics: ServerMetrics? = nil,
        onEnd: @escaping @Sendable (End) async -> Void
    ) {
        (self.source, self.label, self.stopHint, self.library, self.logger, self.onEnd) =
            (source, label, stopHint, library, logger, onEnd)
        self.metrics = metrics
    }

    /// Whether a recording was asked for and has not ended.
    var isRecording: Bool { state.withLock { $0.request != nil } }

    /// The recording asked for or being written, and its seconds so far.
    var current: (id: String, seconds: Double)? {
        state.withLock { s in s.request.map { ($0.id, s.recordedSeconds) } }
    }

    /// Lists a new recording (as being written) and records from the source's next frame on.
    /// - Throws: `alreadyRecording` (409) while one is asked for or being written; a library
    ///   failure (`diskFull`, `writeFailed`).
    func start(limits: RecordingLimits) async throws -> RecordingEntry {
        let entry = RecordingEntry.started(source: source)
        do {
            try await library.insert(entry)
        } catch {
            throw library.apiError(error, logger: logger)
        }
        let request = Request(id: entry.id, url: library.movieURL(entry), limits: limits)
        let accepted = state.withLock { s -> Bool in
            guard s.request == nil else { return false }
            (s.request, s.stopAsked, s.recordedSeconds) = (request, false, 0)
            return true
        }
        guard accepted else {
            _ = try await library.deleteRecording(id: entry.id)
            throw APIError(.conflict, code: .alreadyRecording, message: "\(label) is already recording", hint: stopHint)
        }
        return entry
    }

    /// Asks the recording to end at the source's next frame, without waiting.
    /// - Returns: whether a recording was asked for or being written.
    @discardableResult
    func requestStop() -> Bool {
        state.withLock { s in
            guard s.request != nil else { return false }
            s.stopAsked = true
            return true
        }
    }

    /// Ends the recording at the source's next frame and returns how it ended, once its entry
    /// is complete.
    /// - Throws: `notRecording` (409); `cameraNotResponding` (504) when no frame came within
    ///   `patience` to end it on (it still ends at the next one).
    func stop(patience: Duration = .seconds(10)) async throws -> End {
        let (ends, waiter) = AsyncStream.makeStream(of: End.self, bufferingPolicy: .bufferingNewest(1))
        let asked = state.withLock { s -> Bool in
            guard let id = s.request?.id else { return false }
            s.stopAsked = true
            s.endWaiters[id, default: []].append(waiter)
            return true
        }
        guard asked else {
            throw APIError(.conflict, code: .notRecording, message: "\(label) is not recording", hint: "start a recording first")
        }
        guard let end = await ends.first(within: patience) else {
            throw APIError(
                .gatewayTimeout, code: .cameraNotResponding, message: "\(label) delivered no frame for \(patience)",
                hint: "the recording ends when the source delivers again or the server stops")
        }
        return end
    }

    /// On the source's frame thread: writes `frame` into the recording asked for (opening it
    /// at this frame), and ends it when asked, at a limit or when the disk fails.
    func append(_ frame: PixelBuffer, at time: Double, frameRate: Double) {
        guard let (request, stop) = state.withLock({ s in s.request.map { ($0, s.stopAsked) } }) else { return }
        let (finished, seconds) = writer.withLock { current -> (FinishedRecording?, Double) in
            if current?.id != request.id {
                current = RecordingWriter(
                    id: request.id, url: request.url, limits: request.limits, frameRate: frameRate, logger: logger, metrics: metrics)
            }
            guard let recording = current else { return (nil, 0) }
            let finished = stop ? recording.finish(.finished) : recording.append(frame, at: time)
            if finished != nil { current = nil }
            return (finished, recording.recordedSeconds)
        }
        if let finished {
            forget(finished.id)
            conclude(finished)
        } else {
            state.withLock { s in if s.request?.id == request.id { s.recordedSeconds = seconds } }
        }
    }

    /// On the source's frame thread, when it goes away: the recording asked for or being
    /// written ends now as `reason`.
    func end(_ reason: RecordingEndReason) {
        guard let request = state.withLock({ $0.request }) else { return }
        let finished = writer.withLock { current -> FinishedRecording in
            defer { current = nil }
            guard let recording = current, recording.id == request.id else {
                return FinishedRecording(id: request.id, outcome: .nothing, reason: reason)
            }
            return recording.finish(reason)
        }
        forget(request.id)
        conclude(finished)
    }

    /// Waits until every ended recording's entry is complete (at shutdown).
    func concluded() async {
        for task in state.withLock({ Array($0.concluding.values) }) { await task.value }
    }

    private func forget(_ id: String) {
        state.withLock { s in
            guard s.request?.id == id else { return }
            (s.request, s.stopAsked, s.recordedSeconds) = (nil, false, 0)
        }
    }

    /// Completes the entry in the library and tells `onEnd` and the waiting `stop` callers,
    /// off the frame thread.
    private func conclude(_ finished: FinishedRecording) {
        let key = UUID()
        let task = Task { [self] in
            var entry: RecordingEntry?
            do {
                entry = try await library.conclude(finished)
            } catch {
                _ = library.apiError(error, logger: logger)
            }
            await onEnd((entry, finished.reason))
            let waiters = state.withLock { s in
                s.concluding.removeValue(forKey: key)
                return s.endWaiters.removeValue(forKey: finished.id) ?? []
            }
            for waiter in waiters {
                waiter.yield((entry, finished.reason))
                waiter.finish()
            }
        }
        state.withLock { $0.concluding[key] = task }
    }
}
