import Foundation
import Kamera
import KameraReports
import Logging
import Synchronization

/// A camera attached to the server (`kamera serve --camera /dev/videoN`, or a video file
/// standing in for one): the live view of a headless box, and recordings made from the camera
/// itself.
///
/// The camera is opened when the first page watches it or a recording starts, and closed when
/// neither remains. A capture thread of its own reads every frame (blocking reads never run on
/// Swift's cooperative pool or the event loops) and hands it to the camera's
/// `RecordingController`, which writes every frame at the camera's full size and rate;
/// separately, the camera's `LiveSession` (the same analysis a page's frames get) analyses the
/// newest frame whenever an analysis slot is free (`LiveFrameQueue`: latest frame wins), and
/// each analysed frame goes to every watching page as a JPEG with its result. Analysis options
/// are the camera's, shared by its watchers: the last page to change them wins.
final class ServerCamera: Sendable {
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
        var clips: Clips?
        /// Whether `GET /v1/cameras/{index}/controls` has controls to show (a V4L2 device whose
        /// driver lists them).
        var hasControls: Bool
    }

    /// The camera's event clips as `GET /v1/cameras` lists them.
    struct Clips: Encodable {
        var events: [CameraEvent]
        var preRoll: Double
        var postRoll: Double
        var maximumSeconds: Double
        /// Whether a clip is being written now.
        var writing: Bool
    }

    struct State {
        var capturing = false
        var shuttingDown = false
        var frameSize: (width: Int, height: Int)?
        /// `shutDown` waiting for the capture thread to end.
        var captureEndWaiters: [AsyncStream<Void>.Continuation] = []
        /// Photos waiting for the camera's next frame.
        var frameWaiters: [UUID: AsyncStream<VideoFrame>.Continuation] = [:]
    }

    let index: Int
    let path: String
    let name: String
    let services: ServerServices
    let watchers = CameraWatchers()
    let recording: RecordingController
    let session: LiveSession
    let state = Mutex(State())
    /// The camera's controls, when it is a V4L2 device whose driver lists them (nil for a
    /// video file standing in for a camera).
    let captureDevice: CaptureDevice?
    /// The camera's event clips (`--clips`); nil when it keeps none.
    let clips: CameraClips?

    /// Checks that `path` can be opened as a camera (see `CameraFeed.check`), without opening it.
    /// - Parameters:
    ///   - privacy: faces covered in this style in all it shows and records, whatever pages ask.
    ///   - clips: which events get a clip, and how long; the camera then captures and analyses
    ///     all the time, from `startEventClips()` on.
    init(index: Int, path: String, services: ServerServices, privacy: RedactionStyle? = nil, clips: EventClipPolicy? = nil) throws {
        try CameraFeed.check(path)
        (self.index, self.path, self.services) = (index, path, services)
        let device = CameraDevice(queryingDeviceAt: path)
        name = device?.name ?? URL(fileURLWithPath: path).lastPathComponent
        captureDevice = device.flatMap { try? CaptureDevice($0) }
        let watchers = watchers
        recording = RecordingController(
            source: path, label: "camera \(index)", stopHint: "DELETE /v1/cameras/\(index)/recording stops it",
            library: services.library, logger: services.logger, metrics: services.metrics
        ) { end in watchers.broadcast(.notice(LiveMessage.ended(end.entry, reason: end.reason))) }
        let clips = clips.map {
            CameraClips(
                policy: $0, source: path, library: services.library, logger: services.logger,
                minimumFreeDiskSpace: services.recordingLimits.minimumFreeDiskSpace)
        }
        self.clips = clips
        session = LiveSession(
            recording: recording, recordsFrames: false, maximumPixelCount: .max, enforcedRedaction: privacy, clips: clips)
    }

    /// Whether the camera has nothing to do and may close (a camera keeping event clips
    /// always has; a photo waiting for a frame keeps it open).
    var isIdle: Bool {
        let (stopping, photosWaiting) = state.withLock { ($0.shuttingDown, !$0.frameWaiters.isEmpty) }
        return stopping || (watchers.isEmpty && !recording.isRecording && clips == nil && !photosWaiting)
    }

    var listing: Listing {
        let (capturing, size) = state.withLock { ($0.capturing, $0.frameSize) }
        return Listing(
            index: index, path: path, name: name, live: "/v1/cameras/\(index)/live", capturing: capturing,
            watching: watchers.count, width: size?.width, height: size?.height,
            recording: recording.current.map { Listing.Recording(id: $0.id, seconds: $0.seconds) },
            clips: clips.map {
                Clips(
                    events: $0.policy.events.sorted(), preRoll: $0.policy.preRoll, postRoll: $0.policy.postRoll,
                    maximumSeconds: $0.policy.maximumDuration, writing: $0.isWritingClip)
            }, hasControls: captureDevice != nil)
    }

    /// Starts capturing for event clips (at server start, once interrupted clips are recovered).
    func startEventClips() {
        if clips != nil { startCaptureIfNeeded() }
    }

    /// Starts sending this camera's analysed frames to a new watcher (opening the camera if
    /// it is closed). Slow watchers skip frames; end with `stopWatching`.
    func watch() -> (id: UUID, updates: AsyncStream<CameraWatchers.Update>) {
        let watcher = watchers.add()
        startCaptureIfNeeded()
        return watcher
    }

    func stopWatching(_ id: UUID) { watchers.remove(id) }

    /// Starts recording every frame at the camera's full size and rate, within `limits`;
    /// the entry is listed (as being written) before the first frame.
    /// - Throws: `alreadyRecording` (409), or a library failure.
    func startRecording(limits: RecordingLimits) async throws -> RecordingEntry {
        guard !state.withLock({ $0.shuttingDown }) else {
            throw APIError(.serviceUnavailable, code: .cameraUnavailable, message: "the server is stopping", hint: "")
        }
        let entry = try await recording.start(limits: limits)
        startCaptureIfNeeded()
        return entry
    }

    /// The camera's next frame at its full size (opening the camera if it is closed; a
    /// device's first frames, while its exposure settles, are skipped): a photo.
    /// - Throws: `cameraUnavailable` (503) while the server stops; `cameraNotResponding` (504)
    ///   when no frame came within `patience`.
    func nextFrame(patience: Duration = .seconds(10)) async throws -> VideoFrame {
        let id = UUID()
        let (frames, waiter) = AsyncStream.makeStream(of: VideoFrame.self, bufferingPolicy: .bufferingNewest(1))
        let accepted = state.withLock { s -> Bool in
            guard !s.shuttingDown else { return false }
            s.frameWaiters[id] = waiter
            return true
        }
        guard accepted else {
            throw APIError(.serviceUnavailable, code: .cameraUnavailable, message: "the server is stopping", hint: "")
        }
        startCaptureIfNeeded()
        let frame = await frames.first(within: patience)
        state.withLock { _ = $0.frameWaiters.removeValue(forKey: id) }
        guard let frame else {
            throw APIError(
                .gatewayTimeout, code: .cameraNotResponding, message: "camera \(index) delivered no frame for \(patience)",
                hint: "check the camera; GET /v1/cameras says whether it is capturing")
        }
        return frame
    }

    /// On the capture thread: hands `frame` to the photos waiting for one.
    func deliverToWaiters(_ frame: VideoFrame) {
        let waiters = state.withLock { s -> [AsyncStream<VideoFrame>.Continuation] in
            defer { s.frameWaiters = [:] }
            return Array(s.frameWaiters.values)
        }
        for waiter in waiters {
            waiter.yield(frame)
            waiter.finish()
        }
    }

    /// Ends capture (a recording in progress is finished as `serverStopped`) and waits, up to
    /// a few seconds, until the movie is closed and its entry completed.
    func shutDown() async {
        let (ended, waiter) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        let capturing = state.withLock { s -> Bool in
            s.shuttingDown = true
            if s.capturing { s.captureEndWaiters.append(waiter) }
            return s.capturing
        }
        if capturing { _ = await ended.first(within: .seconds(5)) }
        // A recording asked for after the capture ended has no frame to end on.
        recording.end(.serverStopped)
        await recording.concluded()
        await clips?.concluded()
        watchers.finishAll()
    }
}
