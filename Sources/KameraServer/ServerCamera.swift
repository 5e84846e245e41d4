import Foundation
import Kamera
import KameraReports
import Synchronization

/// A camera attached to the server (`kamera serve --camera /dev/videoN`): the live view of a
/// headless box, and recordings made from the camera itself.
///
/// The camera is opened when the first page watches it or a recording starts, and closed when
/// neither remains. A capture thread of its own reads every frame (blocking reads never run on
/// Swift's cooperative pool or the event loops) and writes every frame, at the camera's full
/// size and rate, into the recording; separately, one `LiveScanner` analyses the newest frame
/// whenever an analysis slot is free (latest frame wins), and each analysed frame goes to
/// every watching page as a JPEG with its result. Detector options are the camera's, shared
/// by its watchers: the last page to change them wins.
final class ServerCamera: Sendable {
    /// What a page watching the camera receives: each analysed frame as a JPEG with its
    /// result, and notices (a recording ended, the camera failed).
    enum Update: Sendable {
        case frame(id: UInt32, jpeg: Data, message: String)
        case notice(String)
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

    let index: Int
    let path: String
    let name: String
    private let admission: AnalysisAdmission
    private let library: ResultsLibrary
    private let state = Mutex(State())

    private struct PendingRecording {
        var id: String
        var url: URL
        var limits: RecordingLimits
    }

    private struct State {
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

        /// Whether the camera has nothing to do and may close.
        var isIdle: Bool { shuttingDown || (watchers.isEmpty && recording == nil) }
    }

    /// Checks that `path` can be opened as a camera (see `CameraFeed.check`), without opening it.
    init(index: Int, path: String, admission: AnalysisAdmission, library: ResultsLibrary) throws {
        try CameraFeed.check(path)
        self.index = index
        self.path = path
        name = CameraDevice(queryingDeviceAt: path)?.name ?? URL(fileURLWithPath: path).lastPathComponent
        self.admission = admission
        self.library = library
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

    private func broadcast(_ update: Update) {
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
                .conflict, code: "alreadyRecording", message: "camera \(index) is already recording",
                hint: "DELETE /v1/cameras/\(index)/recording stops it")
        }
        startCaptureIfNeeded()
        return entry
    }

    /// Stops the recording in progress and returns its finished entry (nil when it ended
    /// before its first frame and was removed).
    func stopRecording() async throws -> RecordingEntry? {
        let id = state.withLock { s -> String? in
            s.stopRecording = s.recording != nil
            return s.recording?.id
        }
        guard let id else {
            throw APIError(.conflict, code: "notRecording", message: "camera \(index) is not recording", hint: "POST to start a recording")
        }
        // The capture thread ends it at its next frame; a camera delivers several a second.
        let deadline = ContinuousClock.now + .seconds(10)
        while ContinuousClock.now < deadline {
            guard let entry = try await library.recording(id: id) else { return nil }
            if entry.complete { return entry }
            try await Task.sleep(for: .milliseconds(20))
        }
        throw APIError(
            .gatewayTimeout, code: "cameraNotResponding", message: "camera \(index) delivered no frame for 10 s",
            hint: "the recording ends when the camera delivers again or the server stops")
    }

    // MARK: Capture

    private func startCaptureIfNeeded() {
        let start = state.withLock { s -> Bool in
            guard !s.capturing, !s.isIdle else { return false }
            s.capturing = true
            return true
        }
        guard start else { return }
        let thread = Thread { [self] in capture() }
        thread.name = "kamera camera \(index)"
        thread.start()
    }

    /// The capture thread: reads frames until the camera is idle, fails or the server stops,
    /// records them, and hands the newest to the analysis task.
    private func capture() {
        let (frames, newest) = AsyncStream.makeStream(of: VideoFrame.self, bufferingPolicy: .bufferingNewest(1))
        let session = LiveSession(maximumPixelCount: .max)
        let analysis = Task { await analyse(frames, session: session) }
        var recorder: (id: String, recorder: MovieRecorder)?
        var failure: APIError?
        do {
            let feed = try CameraFeed(path: path)
            state.withLock { $0.frameSize = (feed.width, feed.height) }
            while !state.withLock({ $0.isIdle }) {
                guard let frame = try feed.next() else {
                    failure = APIError(
                        .serviceUnavailable, code: "cameraLost", message: "camera \(index) stopped delivering frames",
                        hint: "check the camera and its cable")
                    break
                }
                record(frame, feed: feed, into: &recorder)
                newest.yield(frame)
            }
        } catch let error as KameraError {
            failure = APIError(
                .serviceUnavailable, code: "cameraUnavailable", message: "camera \(index) (\(path)): \(error.reason)", hint: error.hint)
        } catch {
            failure = APIError(.serviceUnavailable, code: "cameraUnavailable", message: "camera \(index) (\(path)): \(error)", hint: "")
        }
        newest.finish()
        let reason = failure != nil ? "cameraLost" : state.withLock { $0.shuttingDown } ? "serverStopped" : nil
        if let (id, movie) = recorder {
            finish(id: id, movie, reason: reason)
        } else if let pending = state.withLock({ s in
            defer { s.recording = nil }; return s.recording
        }) {
            // Asked for, but the camera never delivered a frame for it.
            conclude(FinishedRecording(id: pending.id, width: 0, height: 0, summary: nil), reason: nil)
        }
        if let failure, let message = try? LiveSocket.errorMessage(id: nil, failure) {
            // Watchers are told and let go: nothing more will come.
            let watchers = state.withLock { s in
                defer { s.watchers = [:] }; return s.watchers.values
            }
            for watcher in watchers {
                watcher.yield(.notice(message))
                watcher.finish()
            }
        }
        _ = analysis
        // Closed; open again at once if a page or a recording arrived meanwhile.
        let again = state.withLock { s -> Bool in
            s.capturing = false
            s.frameSize = nil
            return failure == nil && !s.isIdle
        }
        if again { startCaptureIfNeeded() }
    }

    /// Writes `frame` into the recording that was asked for (starting it at this frame),
    /// and ends it when asked to or when a limit is reached.
    private func record(_ frame: VideoFrame, feed: CameraFeed, into recorder: inout (id: String, recorder: MovieRecorder)?) {
        let (pending, stop) = state.withLock { ($0.recording, $0.stopRecording) }
        guard let pending else { return }
        if stop {
            if let (id, movie) = recorder {
                finish(id: id, movie, reason: nil)
                recorder = nil
            } else {
                state.withLock { $0.recording = nil }
                conclude(FinishedRecording(id: pending.id, width: 0, height: 0, summary: nil), reason: nil)
            }
            return
        }
        if recorder == nil {
            let settings = RecordingSettings(
                width: feed.width, height: feed.height, frameRate: feed.frameRate, maximumDuration: pending.limits.maximumDuration,
                maximumFileSize: pending.limits.maximumFileSize, minimumFreeDiskSpace: pending.limits.minimumFreeDiskSpace)
            do {
                recorder = (pending.id, try MovieRecorder(url: pending.url, settings: settings))
            } catch {
                state.withLock { $0.recording = nil }
                conclude(FinishedRecording(id: pending.id, width: feed.width, height: feed.height, summary: nil), reason: nil)
                return
            }
        }
        let (id, movie) = recorder!
        let goesOn: Bool
        do {
            goesOn = try movie.append(frame.pixelBuffer, at: frame.time)
        } catch {
            // A failed write (the disk went away): keep what was written.
            finish(id: id, movie, reason: "writeFailed")
            recorder = nil
            return
        }
        if goesOn {
            state.withLock { $0.recordedSeconds = movie.recordedDuration }
        } else {
            finish(id: id, movie, reason: nil)
            recorder = nil
        }
    }

    /// Finishes the movie (on the capture thread), then completes its library entry.
    private func finish(id: String, _ movie: MovieRecorder, reason: String?) {
        let summary: RecordingSummary?
        do {
            summary = try movie.finish()
        } catch {
            summary = nil
        }
        state.withLock { s in
            if s.recording?.id == id { (s.recording, s.stopRecording, s.recordedSeconds) = (nil, false, nil) }
        }
        conclude(FinishedRecording(id: id, width: movie.settings.width, height: movie.settings.height, summary: summary), reason: reason)
    }

    /// Completes the entry in the library and tells the watchers, off the capture thread.
    private func conclude(_ finished: FinishedRecording, reason: String?) {
        let key = UUID()
        let task = Task {
            let entry = try? await library.conclude(finished, reason: reason)
            let message = try? entry.map(LiveSocket.recordingMessage) ?? LiveSocket.errorMessage(id: nil, .nothingRecorded)
            if let message { broadcast(.notice(message)) }
            _ = state.withLock { $0.concluding.removeValue(forKey: key) }
        }
        state.withLock { $0.concluding[key] = task }
    }

    // MARK: Analysis

    /// Analyses the newest captured frame whenever a slot is free and someone is watching.
    private func analyse(_ frames: AsyncStream<VideoFrame>, session: LiveSession) async {
        var lastIndex = -1, dropped = 0
        for await frame in frames {
            if lastIndex >= 0 { dropped += max(0, frame.index - lastIndex - 1) }
            lastIndex = frame.index
            let (watching, options, recordedSeconds) = state.withLock { (!$0.watchers.isEmpty, $0.options, $0.recordedSeconds) }
            guard watching else { continue }
            session.update(options)
            let id = UInt32(truncatingIfNeeded: frame.index), droppedSoFar = dropped
            do {
                let (outcome, jpeg) = try await admission.runInTurn {
                    let outcome = try session.analyse(
                        id: id, frame: frame.pixelBuffer, at: frame.time, dropped: droppedSoFar, recordingSeconds: recordedSeconds)
                    return (outcome, try ImageEncoder.encode(frame.pixelBuffer, as: .jpeg(quality: 80)))
                }
                broadcast(.frame(id: id, jpeg: jpeg, message: outcome.message))
                try? await library.note(outcome, session: session.id)
            } catch let error as KameraError {
                if let message = try? LiveSocket.errorMessage(id: id, APIError(error)) { broadcast(.notice(message)) }
            } catch {
                continue
            }
        }
    }

    // MARK: Shutdown

    /// Ends capture (a recording in progress is finished as "serverStopped") and waits, up to
    /// a few seconds, until the movie is closed and its entry completed.
    func shutDown() async {
        state.withLock { $0.shuttingDown = true }
        let deadline = ContinuousClock.now + .seconds(5)
        while state.withLock({ $0.capturing }), ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(20))
        }
        for task in state.withLock({ Array($0.concluding.values) }) { await task.value }
        for watcher in state.withLock({ s in
            defer { s.watchers = [:] }; return Array(s.watchers.values)
        }) { watcher.finish() }
    }
}
