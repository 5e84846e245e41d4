import Foundation
import Kamera
import Logging

/// The camera's capture thread and the analysis of its newest frame.
extension ServerCamera {
    func startCaptureIfNeeded() {
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
        let session = LiveSession(maximumPixelCount: .max, logger: logger)
        let analysis = Task { await analyse(frames, session: session) }
        var writer: RecordingWriter?
        var failure: APIError?
        do {
            let feed = try CameraFeed(path: path)
            state.withLock { $0.frameSize = (feed.width, feed.height) }
            while !state.withLock({ $0.isIdle }) {
                guard let frame = try feed.next() else {
                    failure = APIError(
                        .serviceUnavailable, code: .cameraLost, message: "camera \(index) stopped delivering frames",
                        hint: "check the camera and its cable")
                    break
                }
                record(frame, frameRate: feed.frameRate, into: &writer)
                newest.yield(frame)
            }
        } catch let error as KameraError {
            failure = APIError(
                .serviceUnavailable, code: .cameraUnavailable, message: "camera \(index) (\(path)): \(error.reason)", hint: error.hint)
        } catch {
            failure = APIError(.serviceUnavailable, code: .cameraUnavailable, message: "camera \(index) (\(path)): \(error)", hint: "")
        }
        newest.finish()
        if let failure { logger.error("\(failure.error.message)") }
        // A recording asked for or being written ends with the capture.
        if let pending = state.withLock({ s in
            defer { (s.recording, s.stopRecording, s.recordedSeconds) = (nil, false, nil) }
            return s.recording
        }) {
            let reason: RecordingEndReason = failure != nil ? .cameraLost : .serverStopped
            conclude(writer?.finish(reason) ?? FinishedRecording(id: pending.id, outcome: .nothing, reason: reason))
        }
        if let failure {
            // Watchers are told and let go: nothing more will come.
            let watchers = state.withLock { s in
                defer { s.watchers = [:] }; return s.watchers.values
            }
            for watcher in watchers {
                watcher.yield(.notice(.error(id: nil, failure)))
                watcher.finish()
            }
        }
        _ = analysis
        // Closed; open again at once if a page or a recording arrived meanwhile.
        let (again, waiters) = state.withLock { s -> (Bool, [AsyncStream<Void>.Continuation]) in
            s.capturing = false
            s.frameSize = nil
            defer { s.captureEndWaiters = [] }
            return (failure == nil && !s.isIdle, s.captureEndWaiters)
        }
        for waiter in waiters {
            waiter.yield()
            waiter.finish()
        }
        if again { startCaptureIfNeeded() }
    }

    /// Writes `frame` into the recording that was asked for (starting it at this frame),
    /// and ends it when asked to, at a limit or when the disk fails.
    private func record(_ frame: VideoFrame, frameRate: Double, into writer: inout RecordingWriter?) {
        let (pending, stop) = state.withLock { ($0.recording, $0.stopRecording) }
        guard let pending else { return }
        if writer?.id != pending.id {
            writer = RecordingWriter(id: pending.id, url: pending.url, limits: pending.limits, frameRate: frameRate, logger: logger)
        }
        guard let current = writer else { return }
        let finished = stop ? current.finish(.finished) : current.append(frame.pixelBuffer, at: frame.time)
        let seconds = current.recordedSeconds
        state.withLock { s in
            guard s.recording?.id == pending.id else { return }
            if finished != nil {
                (s.recording, s.stopRecording, s.recordedSeconds) = (nil, false, nil)
            } else {
                s.recordedSeconds = seconds
            }
        }
        if let finished {
            writer = nil
            conclude(finished)
        }
    }

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
                await library.noteLogging(outcome, session: session.id, logger: logger)
            } catch let error as KameraError {
                broadcast(.notice(.error(id: id, APIError(error))))
            } catch {
                continue
            }
        }
    }
}
