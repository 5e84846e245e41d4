import Foundation
import Kamera
import Logging

/// The camera's capture thread, and the analysis of its newest frame.
extension ServerCamera {
    /// Frames a device delivers before a photo is taken from it (as `kamera snap --warm-up`).
    static let warmUpFrames = 10
    /// How long a camera keeping event clips waits before it is opened again after failing.
    static let retryDelay = Duration.seconds(5)

    func startCaptureIfNeeded() {
        let start = state.withLock { s -> Bool in
            guard !s.capturing, !s.shuttingDown else { return false }
            s.capturing = true
            return true
        }
        guard start else { return }
        guard !isIdle else {
            state.withLock { $0.capturing = false }
            return
        }
        let thread = Thread { [self] in capture() }
        thread.name = "kamera camera \(index)"
        thread.start()
    }

    /// The capture thread: reads frames until the camera is idle, fails or the server stops,
    /// records every one, and queues each for the analysis (which keeps the newest).
    private func capture() {
        let queue = LiveFrameQueue()
        let analysis = Task { await analyse(queue) }
        var failure: APIError?
        do {
            let feed = try CameraFeed(path: path)
            state.withLock { $0.frameSize = (feed.width, feed.height) }
            while !isIdle {
                guard let frame = try feed.next() else {
                    failure = APIError(
                        .serviceUnavailable, code: .cameraLost, message: "camera \(index) stopped delivering frames",
                        hint: "check the camera and its cable")
                    break
                }
                // A device's first frames come while its exposure settles: no photo of those.
                if !feed.isDevice || frame.index >= Self.warmUpFrames { deliverToWaiters(frame) }
                // With the background replaced, the analysis records the frames it changed.
                if !session.changesPicture {
                    recording.append(frame.pixelBuffer, at: frame.time, frameRate: feed.frameRate)
                    clips?.append(frame.pixelBuffer, at: frame.time, frameRate: feed.frameRate)
                }
                queue.yield(LiveFrame(id: UInt32(truncatingIfNeeded: frame.index), picture: .decoded(frame.pixelBuffer, time: frame.time)))
            }
        } catch let error as KameraError {
            failure = APIError(
                .serviceUnavailable, code: .cameraUnavailable, message: "camera \(index) (\(path)): \(error.reason)", hint: error.hint)
        } catch {
            failure = APIError(.serviceUnavailable, code: .cameraUnavailable, message: "camera \(index) (\(path)): \(error)", hint: "")
        }
        queue.finish()
        _ = analysis
        if let failure { services.logger.error("\(failure.error.message)") }
        // A recording asked for or being written ends with the capture.
        recording.end(failure != nil ? .cameraLost : .serverStopped)
        clips?.finish(failure != nil ? .cameraLost : .serverStopped)
        // Watchers are told and let go: nothing more will come.
        if let failure {
            watchers.finishAll(with: .notice(.error(id: nil, failure)))
            // Photos waiting for a frame get none: they are answered now, not at their timeout.
            for waiter in state.withLock({ s in
                defer { s.frameWaiters = [:] }
                return Array(s.frameWaiters.values)
            }) { waiter.finish() }
        }
        // Closed; open again at once if a page or a recording arrived meanwhile.
        let waiters = state.withLock { s -> [AsyncStream<Void>.Continuation] in
            (s.capturing, s.frameSize) = (false, nil)
            defer { s.captureEndWaiters = [] }
            return s.captureEndWaiters
        }
        for waiter in waiters {
            waiter.yield()
            waiter.finish()
        }
        if failure == nil {
            startCaptureIfNeeded()
        } else if clips != nil {
            // A camera keeping event clips runs unwatched: it is tried again every few
            // seconds (unplugged and plugged back in, it carries on by itself).
            services.logger.notice("camera \(index) is tried again in \(Self.retryDelay) for its event clips")
            Task { [self] in
                try? await Task.sleep(for: Self.retryDelay)
                startCaptureIfNeeded()
            }
        }
    }

    /// Analyses the newest captured frame whenever a slot is free and someone is watching (or
    /// a recording needs its background changed, or event clips need to know what is in
    /// view), and sends it with its result to every watcher.
    private func analyse(_ queue: LiveFrameQueue) async {
        let (watchers, session, recording, keepsClips) = (watchers, session, recording, clips != nil)
        // Frames go out as JPEG only while someone watches (a camera analysed for its event
        // clips alone encodes none).
        let previews: @Sendable () -> Bool = { !watchers.isEmpty }
        let wanted: @Sendable () -> Bool = { !watchers.isEmpty || keepsClips || (session.changesPicture && recording.isRecording) }
        try? await session.run(queue, services: services, previews: previews, wanted: wanted) { delivery in
            switch delivery {
            case .result(let id, let message, let jpeg):
                // Analysed before anyone watched: there is no picture to go with the result.
                guard let jpeg else { return }
                watchers.broadcast(.frame(id: id, jpeg: jpeg, message: message))
            case .failure(let id, let error):
                watchers.broadcast(.notice(.error(id: id, error)))
            }
        }
    }
}
