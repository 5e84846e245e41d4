import Foundation
import Kamera
import Logging

/// One recording being written from a stream of frames — a page's or a server camera's —
/// within its limits: the movie is opened at the first frame (at that frame's size), and every
/// way it can end (a limit, a stop, a full disk, a failed write, the source going away)
/// becomes one `FinishedRecording` with a typed reason. Never throws: a failed write ends the
/// recording and keeps what was written. Not thread-safe: one frame at a time.
final class RecordingWriter {
    let id: String
    let url: URL
    private let limits: RecordingLimits
    private let frameRate: Double
    private let logger: Logger
    private var recorder: MovieRecorder?
    private(set) var ended = false

    init(id: String, url: URL, limits: RecordingLimits, frameRate: Double, logger: Logger) {
        (self.id, self.url, self.limits, self.frameRate, self.logger) = (id, url, limits, frameRate, logger)
    }

    /// Seconds recorded so far.
    var recordedSeconds: Double { recorder?.recordedDuration ?? 0 }

    /// Appends `frame`; nil while the recording goes on, the finished recording when it ended
    /// at this frame.
    func append(_ frame: PixelBuffer, at time: Double) -> FinishedRecording? {
        guard !ended else { return nil }
        if recorder == nil {
            // Recordings are H.264: even sides (a camera's odd size loses its last row or column).
            let settings = RecordingSettings(
                width: frame.width & ~1, height: frame.height & ~1, frameRate: frameRate, maximumDuration: limits.maximumDuration,
                maximumFileSize: limits.maximumFileSize, minimumFreeDiskSpace: limits.minimumFreeDiskSpace)
            do {
                recorder = try MovieRecorder(url: url, settings: settings)
            } catch let error as KameraError {
                return end(after: error)
            } catch {
                return end(after: .writeFailed(path: url.path, reason: "\(error)"))
            }
        }
        guard let recorder else { return nil }
        do {
            let even = frame.width == recorder.settings.width && frame.height == recorder.settings.height
            let picture = even ? frame : frame.croppedToEven(width: recorder.settings.width, height: recorder.settings.height)
            if try recorder.append(picture, at: time) { return nil }
            return finish(nil)
        } catch let error as KameraError {
            return end(after: error)
        } catch {
            return end(after: .writeFailed(path: url.path, reason: "\(error)"))
        }
    }

    /// Ends the recording now, as `reason` (nil: the recorder's own, `finished` for a stop).
    func finish(_ reason: RecordingEndReason?) -> FinishedRecording {
        ended = true
        guard let recorder else {
            return FinishedRecording(id: id, outcome: .nothing, reason: reason ?? .finished)
        }
        do {
            let summary = try recorder.finish()
            return FinishedRecording(
                id: id, outcome: .recorded(width: recorder.settings.width, height: recorder.settings.height, summary: summary),
                reason: reason ?? RecordingEndReason(summary.stopReason))
        } catch let error as KameraError where error.code == .nothingRecorded {
            return FinishedRecording(
                id: id, outcome: .nothing, reason: recorder.stopReason.map(RecordingEndReason.init) ?? reason ?? .finished)
        } catch let error as KameraError {
            return end(after: error)
        } catch {
            return end(after: .writeFailed(path: url.path, reason: "\(error)"))
        }
    }

    /// A failed write (or a failure to open): logged, the movie closed as it is.
    private func end(after error: KameraError) -> FinishedRecording {
        ended = true
        let reason: RecordingEndReason = error.code == .diskFull ? .diskFull : .writeFailed
        logger.error("recording \(id) ended: \(error.reason)", metadata: ["code": "\(error.code)"])
        guard let recorder, let summary = recorder.conclude(after: error) else {
            try? FileManager.default.removeItem(at: url)
            return FinishedRecording(id: id, outcome: .nothing, reason: reason)
        }
        return FinishedRecording(
            id: id, outcome: .recorded(width: recorder.settings.width, height: recorder.settings.height, summary: summary), reason: reason)
    }
}
