import Foundation
import Kamera
import Logging
import Synchronization

/// A server camera's event clips (`kamera serve --clips`): every frame goes once through the
/// camera's `EventClipRecorder` (its pre-roll buffer and the open clip), the analysis notes
/// which events it sees, and each clip is listed in the library as a recording — before its
/// first frame, with the event that started it — and completed when it ends.
///
/// Frames arrive on the capture thread (or, when the analysis changes the picture, on the
/// analysis thread), events on the analysis thread; the recorder is behind one lock.
final class CameraClips: Sendable {
    let policy: EventClipPolicy
    private let source: String
    private let library: ResultsLibrary
    private let logger: Logger
    private let minimumFreeDiskSpace: Int64?

    private struct Seen {
        var event: CameraEvent
        var time: Double
    }

    /// The recorder, for the camera's current frame size; rebuilt when the size changes.
    private struct Recording {
        var recorder: EventClipRecorder?
        var width = 0
        var height = 0
        /// The library entry of the open clip.
        var openID: String?
    }

    /// Events the analysis saw since the last frame was appended (at most a few).
    private let seen = Mutex<[Seen]>([])
    /// What the next clip is listed as (the first event seen while none was open).
    private let nextEvent = Mutex<CameraEvent?>(nil)
    /// The entry `clipURL` listed for the clip opening now.
    private let opening = Mutex<String?>(nil)
    private let recording = Mutex(Recording())
    private let concluding = Mutex<[UUID: Task<Void, Never>]>([:])

    /// - Parameters:
    ///   - source: the camera's path, as the entries list it.
    ///   - minimumFreeDiskSpace: no clip is written while the data disk has less (bytes).
    init(policy: EventClipPolicy, source: String, library: ResultsLibrary, logger: Logger, minimumFreeDiskSpace: Int64?) {
        (self.policy, self.source, self.library, self.logger) = (policy, source, library, logger)
        self.minimumFreeDiskSpace = minimumFreeDiskSpace
    }

    /// Whether a clip is being written.
    var isWritingClip: Bool { recording.withLock { $0.openID != nil } }

    /// From the analysis: the frame at `time` (the camera's clock) shows `events`.
    func note(_ events: Set<CameraEvent>, at time: Double) {
        guard let event = events.intersection(policy.events).min() else { return }
        seen.withLock { seen in
            // The frame thread takes them at its next frame; a stalled one keeps the latest.
            if seen.count >= 16 { seen.removeFirst() }
            seen.append(Seen(event: event, time: time))
        }
    }

    /// On the frame thread: `frame`, shown at `time`, into the pre-roll and the open clip.
    func append(_ frame: PixelBuffer, at time: Double, frameRate: Double) {
        let events = seen.withLock { seen in
            defer { seen = [] }
            return seen
        }
        let width = frame.width & ~1, height = frame.height & ~1
        let picture = width == frame.width && height == frame.height ? frame : frame.croppedToEven(width: width, height: height)
        recording.withLock { state in
            if state.recorder == nil || state.width != width || state.height != height {
                end(&state, reason: .finished)
                state = Recording(recorder: makeRecorder(width: width, height: height, frameRate: frameRate), width: width, height: height)
            }
            guard let recorder = state.recorder else { return }
            for seen in events {
                if state.openID == nil { nextEvent.withLock { $0 = $0 ?? seen.event } }
                recorder.noteEvent(at: seen.time)
            }
            do {
                for progress in try recorder.append(picture, at: time) { handle(progress, &state) }
            } catch {
                logger.error("event clips of \(source): \(error)")
                end(&state, reason: .writeFailed)
                state.recorder = nil
            }
        }
    }

    /// On the frame thread, when the camera stops: the open clip ends as `reason`, and the
    /// pre-roll is let go.
    func finish(_ reason: RecordingEndReason) {
        recording.withLock { state in
            end(&state, reason: reason)
            state = Recording()
        }
        seen.withLock { $0 = [] }
    }

    /// Waits until every ended clip's entry is complete (at shutdown).
    func concluded() async {
        for task in concluding.withLock({ Array($0.values) }) { await task.value }
    }

    private func makeRecorder(width: Int, height: Int, frameRate: Double) -> EventClipRecorder? {
        let settings = policy.settings(width: width, height: height, frameRate: frameRate, minimumFreeDiskSpace: minimumFreeDiskSpace)
        do {
            return try EventClipRecorder(settings: settings) { [self] opening in
                // Listed before its first frame, so a crash cannot lose it.
                let event = nextEvent.withLock { event in
                    defer { event = nil }
                    return event ?? policy.events.min() ?? .face
                }
                var entry = RecordingEntry.started(source: source, event: event)
                entry.eventOffset = (opening.eventOffset * 1000).rounded() / 1000
                try library.insertNow(entry)
                self.opening.withLock { $0 = entry.id }
                return library.movieURL(entry)
            }
        } catch {
            logger.error("event clips of \(source) are off: \(error)")
            return nil
        }
    }

    private func handle(_ progress: EventClipRecorder.Progress, _ state: inout Recording) {
        switch progress {
        case .started:
            state.openID = opening.withLock { id in
                defer { id = nil }
                return id
            }
        case .finished(let clip):
            guard let id = state.openID else { return }
            state.openID = nil
            let reason = clip.stopReason == .finished ? RecordingEndReason.eventEnded : RecordingEndReason(clip.stopReason)
            conclude(FinishedRecording(id: id, outcome: Self.outcome(clip), reason: reason))
        case .skipped(_, let reason):
            logger.error("event clip of \(source) not written: \(reason.reason)", metadata: ["code": "\(reason.code)"])
            // Listed before the file could be made: it goes again.
            if let id = opening.withLock({ id in
                defer { id = nil }
                return id
            }) {
                conclude(FinishedRecording(id: id, outcome: .nothing, reason: .writeFailed))
            }
        }
    }

    private func end(_ state: inout Recording, reason: RecordingEndReason) {
        guard let clip = state.recorder?.finish(), let id = state.openID else { return }
        state.openID = nil
        conclude(FinishedRecording(id: id, outcome: Self.outcome(clip), reason: reason))
    }

    private static func outcome(_ clip: EventClip) -> FinishedRecording.Outcome {
        clip.frames > 0 ? .recorded(width: clip.width, height: clip.height, summary: clip.summary) : .nothing
    }

    /// Completes the entry off the frame thread (a thumbnail is made).
    private func conclude(_ finished: FinishedRecording) {
        let key = UUID()
        // Made under the lock, so its own removal (which takes the lock) comes after it is added.
        concluding.withLock { tasks in
            tasks[key] = Task { [self] in
                do {
                    _ = try await library.conclude(finished)
                } catch {
                    _ = library.apiError(error, logger: logger)
                }
                concluding.withLock { _ = $0.removeValue(forKey: key) }
            }
        }
    }
}
