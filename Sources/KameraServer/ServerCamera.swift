import Foundation
import Kamera
import KameraReports
import Logging
import Synchronization

/// A camera attached to the server (`kamera serve --camera /dev/videoN`): the live view of a
/// headless box, and recordings made from the camera itself.
///
/// The camera is opened when the first page watches it or a recording starts, and closed when
/// neither remains. A capture thread of its own reads every frame (blocking reads never run on
/// Swift's cooperative pool or the event loops) and writes every frame, at the camera's full
/// size and rate, into the recording (`RecordingWriter`, as a page's recordings); separately,
/// one `LiveSession` analyses the newest frame whenever an analysis slot is free (latest frame
/// wins), and each analysed frame goes to every watching page as a JPEG with its result.
/// Detector options are the camera's, shared by its watchers: the last page to change them wins.
final class ServerCamera: Sendable {
    /// What a page watching the camera receives: each analysed frame as a JPEG with its
    /// result, and notices (a recording ended, the camera failed).
    enum Update: Sendable {
        case frame(id: UInt32, jpeg: Data, message: String)
        case notice(LiveMessage)
    }

    /// The camera as `GET /v1/cameras` lists it.
    struct Listing: Encodable {
        struct Recording: Encodable {
            var id: String
            var seconds: Double
        }
        var index: Int
        var path: String
        var name: String
        var live: String
        var capturing: Bool
        var watching: Int
        var width: Int?
        var height: Int?
        var recording: Recording?
    }

    struct PendingRecording {
        var id: String
        var url: URL
        var limits: RecordingLimits
    }

    struct State {
        var watchers: [UUID: AsyncStream<Update>.Continuation] = [:]
        var options = AnalysisOptions()
        var capturing = false
        var shuttingDown = false
        /// Asked for, or being written.
        var recording: PendingRecording?
        var stopRecording = false
        var recordedSeconds: Double?
        var frameSize: (width: Int, height: Int)?
        /// Recordings whose library entries are being completed (awaited at shutdown).
        var concluding: [UUID: Task<Void, Never>] = [:]
        /// Callers of `stopRecording` waiting for the completed entry, by recording.
        var endWaiters: [String: [AsyncStream<RecordingEnd>.Continuation]] = [:]
        /// `shutDown` waiting for the capture thread to end.
        var captureEndWaiters: [AsyncStream<Void>.Continuation] = []

        /// Whether the camera has nothing to do and may close.
        var isIdle: Bool { shuttingDown || (watchers.isEmpty && recording == nil) }
    }

    let index: Int
    let path: String
    let name: String
    let admission: AnalysisAdmission
    let library: ResultsLibrary
    let logger: Logger
    let state = Mutex(State())

    /// Checks that `path` can be opened as a camera (see `CameraFeed.check`), without opening it.
    init(index: Int, path: String, admission: AnalysisAdmission, library: ResultsLibrary, logger: Logger) throws {
        try CameraFeed.check(path)
        self.index = index
        self.path = path
        name = CameraDevice(queryingDeviceAt: path)?.name ?? URL(fileURLWithPath: path).lastPathComponent
        self.admission = admission
        self.library = library
        self.logger = logger
    }

    var listing: Listing {
        state.withLock { s in
            Listing(
                index: index, path: path, name: name, live: "/v1/cameras/\(index)/live", capturing: s.capturing,
                watching: s.watchers.count, width: s.frameSize?.width, height: s.frameSize?.height,
                recording: s.recording.map { Listing.Recording(id: $0.id, seconds: s.recordedSeconds ?? 0) })
        }
    }

    // MARK: Watching

    /// Starts sending this camera's analysed frames to a new watcher (opening the camera if
    /// it is closed). Slow watchers skip frames; end with `stopWatching`.
    func watch() -> (id: UUID, updates: AsyncStream<Update>) {
        let (updates, continuation) = AsyncStream.makeStream(of: Update.self, bufferingPolicy: .bufferingNewest(4))
        let id = UUID()
        state.withLock { $0.watchers[id] = continuation }
        startCaptureIfNeeded()
        return (id, updates)
    }

    func stopWatching(_ id: UUID) {
        state.withLock { $0.watchers.removeValue(forKey: id) }?.finish()
    }

    /// Takes new detector options for the camera's scanner.
    func update(_ options: AnalysisOptions) {
        state.withLock { $0.options = options }
    }

    func broadcast(_ update: Update) {
        for watcher in state.withLock({ Array($0.watchers.values) }) { watcher.yield(update) }
    }

    // MARK: Recording

    /// Starts recording every frame at the camera's full size and rate, within `limits`;
    /// the entry is listed (as being written) before the first frame.
    func startRecording(limits: RecordingLimits) async throws -> RecordingEntry {
        let entry = RecordingEntry.started(source: path)
        try await library.insert(entry)
        let url = library.movieURL(entry)
        let accepted = state.withLock { s -> Bool in
            guard s.recording == nil, !s.shuttingDown else { return false }
            s.recording = PendingRecording(id: entry.id, url: url, limits: limits)
            (s.stopRecording, s.recordedSeconds) = (false, 0)
            return true
        }
        guard accepted else {
            _ = try await library.deleteRecording(id: entry.id)
            throw APIError(
                .conflict, code: .alreadyRecording, message: "camera \(index) is already recording",
                hint: "DELETE /v1/cameras/\(index)/recording stops it")
        }
        startCaptureIfNeeded()
        return entry
    }

    /// How a recording ended: its completed entry (nil when it ended before its first frame
    /// and was removed) and why.
    typealias RecordingEnd = (entry: RecordingEntry?, reason: RecordingEndReason)

    /// Stops the recording in progress and returns how it ended, once the capture thread has
    /// closed it and its entry is complete.
    func stopRecording() async throws -> RecordingEnd {
        let (ends, waiter) = AsyncStream.makeStream(of: RecordingEnd.self, bufferingPolicy: .bufferingNewest(1))
        let id = state.withLock { s -> String? in
            guard let id = s.recording?.id else { return nil }
            s.stopRecording = true
            s.endWaiters[id, default: []].append(waiter)
            return id
        }
        guard id != nil else {
            throw APIError(.conflict, code: .notRecording, message: "camera \(index) is not recording", hint: "POST to start a recording")
        }
        // The capture thread ends it at its next frame; a camera delivers several a second.
        guard let end = await Self.first(of: ends, within: .seconds(10)) else {
            throw APIError(
                .gatewayTimeout, code: .cameraNotResponding, message: "camera \(index) delivered no frame for 10 s",
                hint: "the recording ends when the camera delivers again or the server stops")
        }
        return end
    }

    /// Completes the entry in the library, tells the watchers and whoever is waiting in
    /// `stopRecording`, off the capture thread.
    func conclude(_ finished: FinishedRecording) {
        let key = UUID()
        let task = Task {
            var entry: RecordingEntry?
            do {
                entry = try await library.conclude(finished)
            } catch {
                _ = library.apiError(error, logger: logger)
            }
            broadcast(.notice(LiveMessage.ended(entry, reason: finished.reason)))
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

    // MARK: Shutdown

    /// Ends capture (a recording in progress is finished as `serverStopped`) and waits, up to
    /// a few seconds, until the movie is closed and its entry completed.
    func shutDown() async {
        let (ended, waiter) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        let capturing = state.withLock { s -> Bool in
            s.shuttingDown = true
            if s.capturing { s.captureEndWaiters.append(waiter) }
            return s.capturing
        }
        if capturing { _ = await Self.first(of: ended, within: .seconds(5)) }
        for task in state.withLock({ Array($0.concluding.values) }) { await task.value }
        for watcher in state.withLock({ s in
            defer { s.watchers = [:] }; return Array(s.watchers.values)
        }) { watcher.finish() }
    }

    /// The first element of `stream`, or nil when none comes within `limit`.
    static func first<T: Sendable>(of stream: AsyncStream<T>, within limit: Duration) async -> T? {
        await withTaskGroup(of: T?.self) { group in
            group.addTask {
                for await value in stream { return value }
                return nil
            }
            group.addTask {
                try? await Task.sleep(for: limit)
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
    }
}
