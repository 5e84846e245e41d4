import Foundation
import Kamera
import KameraReports
import Logging
import Synchronization

/// One live connection's state: its `LiveScanner` (faces keep their IDs, codes their keys
/// across frames), the options the page chose, and the recording it may be writing.
///
/// `@unchecked Sendable`: the scanner and the recorder are not thread-safe, and they are only
/// touched inside `analyse` and `closeRecording`, which the connection calls for one frame at
/// a time (the next call waits for the previous one), on whichever analysis thread is free.
/// What other tasks change (options, recording requests) goes through `requests`.
final class LiveSession: @unchecked Sendable {
    /// What the analysis of one frame produced: the message for the page, and what the
    /// connection should note in the results library.
    struct Outcome: Sendable {
        var message: String
        var appearedFaces: [Int] = []
        var lostFaces: [Int] = []
        var newCodes: [BarcodeRecord] = []
        /// A recording that ended at this frame (a limit, or the page's stop).
        var finishedRecording: FinishedRecording?
    }

    private struct Requests {
        var options = AnalysisOptions()
        /// Asked for and not yet ended: started at the next frame.
        var recording: (id: String, url: URL, limits: RecordingLimits)?
        var stopRecording = false
    }

    let id = UUID().uuidString
    private let requests = Mutex(Requests())
    private var scanner: LiveScanner?
    private var scannerOptions: AnalysisOptions?
    private var writer: RecordingWriter?
    private let started = ContinuousClock.now
    private let maximumPixelCount: Int
    private let logger: Logger

    init(maximumPixelCount: Int, logger: Logger) {
        self.maximumPixelCount = maximumPixelCount
        self.logger = logger
    }

    /// Takes new options; the scanner is rebuilt at the next frame if they changed.
    func update(_ new: AnalysisOptions) {
        requests.withLock { $0.options = new }
    }

    /// Whether a recording was asked for and has not ended.
    var isRecording: Bool { requests.withLock { $0.recording != nil } }

    /// Starts recording the analysed frames into `url` from the next frame on.
    func startRecording(id: String, url: URL, limits: RecordingLimits) {
        requests.withLock {
            $0.recording = (id, url, limits)
            $0.stopRecording = false
        }
    }

    /// Ends the recording at the next frame.
    func stopRecording() {
        requests.withLock { $0.stopRecording = true }
    }

    /// Decodes and scans one frame (JPEG, WebP or PNG bytes) received now, and records it
    /// when recording; the page's message is encoded here, on the analysis thread.
    func analyse(id frameID: UInt32, image data: Data, dropped: Int) throws -> Outcome {
        let began = ContinuousClock.now
        let image = try ImageDecoder.decode(
            data, path: "live frame", options: ImageDecodingOptions(maximumPixelCount: maximumPixelCount, acceptsDamagedData: true))
        return try analyse(id: frameID, frame: image.pixelBuffer, at: (began - started) / .seconds(1), dropped: dropped, began: began)
    }

    /// Scans one decoded frame captured `time` seconds into the session (a server camera's
    /// frames come decoded); `recordingSeconds` reports a recording made elsewhere (the
    /// camera's own) when this session is not recording.
    func analyse(
        id frameID: UInt32, frame: PixelBuffer, at time: Double, dropped: Int, began: ContinuousClock.Instant = .now,
        recordingSeconds: Double? = nil
    ) throws -> Outcome {
        let wanted = requests.withLock { $0 }
        if scanner == nil || scannerOptions != wanted.options {
            // At most one frame per 1/15 s of detection work: following fills the frames between.
            scanner = try LiveScanner(configuration: wanted.options.liveConfiguration(frameBudget: 1.0 / 15))
            scannerOptions = wanted.options
        }
        let scan = try scanner!.scan(frame, at: time)
        var outcome = Outcome(message: "")
        outcome.finishedRecording = record(frame, at: time, requests: wanted)
        for event in scan.events {
            switch (event.kind, event.type) {
            case (.face, .appeared): outcome.appearedFaces += Int(event.id).map { [$0] } ?? []
            case (.face, .lost): outcome.lostFaces += Int(event.id).map { [$0] } ?? []
            case (.barcode, .appeared):
                outcome.newCodes += scan.barcodes.filter { $0.key == event.id }.map { BarcodeRecord($0.observation) }
            default: break
            }
        }
        let elapsed = (ContinuousClock.now - began) / .milliseconds(1)
        outcome.message = try LiveFrameResult(
            head: .init(
                id: frameID, width: frame.width, height: frame.height, analysisMs: (elapsed * 10).rounded() / 10, dropped: dropped,
                recording: writer?.recordedSeconds ?? recordingSeconds),
            scan: ScanRecord(scan, includesRectangles: wanted.options.detectsRectangles)
        ).json()
        return outcome
    }

    /// Writes the frame into the recording (starting it on its first frame), and ends the
    /// recording when a limit, the disk or the page says so.
    private func record(_ frame: PixelBuffer, at time: Double, requests wanted: Requests) -> FinishedRecording? {
        guard let request = wanted.recording else { return nil }
        if wanted.stopRecording { return closeRecording(.finished) }
        if writer == nil {
            writer = RecordingWriter(id: request.id, url: request.url, limits: request.limits, frameRate: 30, logger: logger)
        }
        guard let finished = writer?.append(frame, at: time) else { return nil }
        forgetRecording()
        return finished
    }

    /// Finishes the recording asked for or being written, if any, as `reason` (the page
    /// stopped it, or the connection closed).
    func closeRecording(_ reason: RecordingEndReason) -> FinishedRecording? {
        let request = requests.withLock { $0.recording }
        guard let request else { return nil }
        let finished = writer?.finish(reason) ?? FinishedRecording(id: request.id, outcome: .nothing, reason: reason)
        forgetRecording()
        return finished
    }

    private func forgetRecording() {
        writer = nil
        requests.withLock { (state: inout Requests) in (state.recording, state.stopRecording) = (nil, false) }
    }
}
