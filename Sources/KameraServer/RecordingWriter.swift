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
    private let metrics: ServerMetrics?
    private var recorder: MovieRecorder?
    private(set) var ended = false
    /// Bytes of the movie already added to `metrics`.
    private var bytesCounted: Int64 = 0

    /// - Parameter metrics: where the recording counts as active while open, and its bytes.
    init(id: String, url: URL, limits: RecordingLimits, frameRate: Double, logger: Logger, metrics: ServerMetrics? = nil) {
        (self.id, self.url, self.limits, self.frameRate, self.logger) = (id, url, limits, frameRate, logger)
        self.metrics = metrics
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
                metrics?.recordingsActive.increment()
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
            let goesOn = try recorder.append(picture, at: time)
            countBytes()
            return goesOn ? nil : finish(nil)
        } catch let error as KameraError {
            return end(after: error)
        } catch {
            return end(after: .writeFailed(path: url.path, reason: "\(error)"))
        }
    }

    /// Ends the recording now, as `reason` (nil: the recorder's own, `finished` for a stop).
    func finish(_ reason: RecordingEndReason?) -> FinishedRecording {
        ended = true
        defer { closed() }
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
        defer { closed() }
        let reason: RecordingEndReason = error.code == .diskFull ? .diskFull : .writeFailed
        logger.error("recording \(id) ended: \(error.reason)", metadata: ["code": "\(error.code)"])
        guard let recorder, let summary = recorder.conclude(after: error) else {
            try? FileManager.default.removeItem(at: url)
            return FinishedRecording(id: id, outcome: .nothing, reason: reason)
        }
        return FinishedRecording(
            id: id, outcome: .recorded(width: recorder.settings.width, height: recorder.settings.height, summary: summary), reason: reason)
    }

    /// Adds what the movie grew by since the last count (`size`: the recorder's count while
    /// it is open, the file's once it is closed).
    private func countBytes(size: Int64? = nil) {
        guard let metrics, let size = size ?? recorder?.recordedFileSize, size > bytesCounted else { return }
        metrics.recordingWrote(bytes: size - bytesCounted)
        bytesCounted = size
    }

    /// The recording is over: its last bytes (the index written at the end) counted, no
    /// longer active.
    private func closed() {
        guard recorder != nil, metrics != nil else { return }
        let attributes = try? FileManager.default.attributesOfItem(atPath: url.path)
        countBytes(size: (attributes?[.size] as? NSNumber)?.int64Value ?? 0)
        metrics?.recordingsActive.decrement()
        recorder = nil
    }
}
