import Foundation
import Kamera
import KameraReports
import Logging
import Synchronization

/// The one live analysis of the server, whatever the frames come from (a page's socket, a
/// server camera, a video file standing in for one): its `LiveScanner` (faces keep their IDs,
/// codes their keys across frames), the options its clients chose, and its recording.
///
/// `@unchecked Sendable`: the scanner is not thread-safe, and it is only touched by `run`,
/// which analyses one frame at a time (the next waits for the previous one), on whichever
/// analysis thread is free. What other tasks change (options, recording) is behind locks.
final class LiveSession: @unchecked Sendable {
    /// What the analysis of one frame gives back to its source.
    enum Delivery: Sendable {
        /// The frame's `LiveFrameResult` as JSON and, when asked for, the frame as a JPEG.
        case result(id: UInt32, message: String, preview: Data?)
        /// The frame could not be analysed (undecodable, too large); the stream goes on.
        case failure(id: UInt32, APIError)
    }

    let id = UUID().uuidString
    /// The source's recording; its `recordedSeconds` are reported with every frame.
    let recording: RecordingController
    private let options = Mutex(AnalysisOptions())
    private var scanner: LiveScanner?
    private var scannerOptions: AnalysisOptions?
    private let recordsFrames: Bool
    private let maximumPixelCount: Int
    private let started = ContinuousClock.now
    /// How faces are covered whatever the clients ask (a server camera's privacy setting).
    private let enforcedRedaction: RedactionStyle?
    private var redactor: StreamRedactor?
    /// The source's event clips: told what each frame shows, and (when the picture is
    /// changed here) given the changed frames.
    private let clips: CameraClips?

    /// - Parameters:
    ///   - recordsFrames: whether the analysed frames are the recording's (a page's); a server
    ///     camera records every captured frame on its own thread instead.
    ///   - enforcedRedaction: faces are covered in this style in everything shown and recorded,
    ///     and clients can change the style but not turn it off (`kamera serve --privacy`).
    ///   - clips: event clips of the source; their events are looked for whatever clients ask.
    init(
        recording: RecordingController, recordsFrames: Bool, maximumPixelCount: Int, enforcedRedaction: RedactionStyle? = nil,
        clips: CameraClips? = nil
    ) {
        (self.recording, self.recordsFrames, self.maximumPixelCount) = (recording, recordsFrames, maximumPixelCount)
        (self.enforcedRedaction, self.clips) = (enforcedRedaction, clips)
    }

    /// Whether the frames shown and recorded are the analysed ones changed (background
    /// replaced, faces covered); a server camera's capture thread then leaves the recording to
    /// the analysis, so nothing unchanged is written.
    var changesPicture: Bool { enforcedRedaction != nil || options.withLock { $0.background != nil || $0.redact != nil } }

    /// How faces are covered in what the source shows now (nil: not at all): a photo taken
    /// from it is covered the same way.
    var faceCovering: RedactionStyle? { enforcedRedaction ?? options.withLock { $0.redact } }

    /// Takes new options; the scanner is rebuilt at the next frame if they changed.
    func update(_ new: AnalysisOptions) {
        options.withLock { $0 = new }
    }

    /// Analyses `queue`'s frames one at a time, each when an analysis slot is free (sessions
    /// take turns when the server is saturated, `AnalysisAdmission.runInTurn`), and hands each
    /// result to `deliver`; what appeared goes into the results library. Returns when the
    /// queue finishes. `wanted` is asked before each frame (a camera nobody watches skips them),
    /// `previews` whether its result carries the frame as a JPEG. The session counts as live in the server's metrics meanwhile, with its frames.
    /// - Throws: what `deliver` throws (the client went away).
    func run(
        _ queue: LiveFrameQueue, services: ServerServices, previews: @escaping @Sendable () -> Bool = { false },
        wanted: @escaping @Sendable () -> Bool = { true }, deliver: @Sendable (Delivery) async throws -> Void
    ) async throws {
        let (admission, library, logger, metrics) = (services.admission, services.library, services.logger, services.metrics)
        metrics.liveSessions.increment()
        defer { metrics.liveSessions.decrement() }
        var droppedCounted = 0
        for await frame in queue.frames {
            guard wanted() else { continue }
            let dropped = queue.dropped
            metrics.liveFrames(analysed: false, count: dropped - droppedCounted)
            droppedCounted = dropped
            let analysed: (Delivery, LiveSightings)
            do {
                analysed = try await admission.runInTurn { try self.analyse(frame, dropped: dropped, preview: previews()) }
            } catch let error as KameraError {
                try await deliver(.failure(id: frame.id, APIError(error)))
                continue
            }
            metrics.liveFrames(analysed: true)
            try await deliver(analysed.0)
            if !analysed.1.isEmpty { await library.noteLogging(analysed.1, session: id, logger: logger) }
        }
    }

    /// Decodes (when encoded), scans and records one frame; the message is encoded here, on
    /// the analysis thread.
    private func analyse(_ frame: LiveFrame, dropped: Int, preview: Bool) throws -> (Delivery, LiveSightings) {
        let began = ContinuousClock.now
        let image: PixelBuffer, time: Double
        switch frame.picture {
        case .encoded(let data):
            image = try ImageDecoder.decode(
                data, path: "live frame",
                options: ImageDecodingOptions(maximumPixelCount: maximumPixelCount, acceptsDamagedData: true)
            ).pixelBuffer
            time = (began - started) / .seconds(1)
        case .decoded(let decoded, let at):
            (image, time) = (decoded, at)
        }
        var wanted = options.withLock { $0 }
        if let enforcedRedaction, wanted.redact == nil { wanted.redact = enforcedRedaction }
        if let clips { wanted.detect(clips.policy.events) }
        if scanner == nil || scannerOptions != wanted {
            // At most one frame per 1/15 s of detection work: following fills the frames between.
            var configuration = try wanted.liveConfiguration(frameBudget: 1.0 / 15)
            // Covering faces, every frame is searched: a face walking in is covered from the
            // first frame the detector can find it on, not a few frames later.
            if wanted.redact != nil { configuration.detectionEvery = 1 }
            scanner = try LiveScanner(configuration: configuration)
            scannerOptions = wanted
        }
        let scan = try scanner!.scan(image, at: time)
        // The background is changed here, on the analysis thread, for the view and the recording alike.
        var shown = image
        let effect = try wanted.backgroundEffect(width: image.width, height: image.height)
        if let effect, let mask = scan.personMask { shown = try mask.applying(effect, to: image) }
        shown = try covered(shown, scan: scan, style: wanted.redact, at: time)
        let changed = effect != nil || wanted.redact != nil
        if recordsFrames || changed { recording.append(shown, at: time, frameRate: 30) }
        if let clips {
            clips.note(Self.events(in: scan), at: time)
            if changed { clips.append(shown, at: time, frameRate: 30) }
        }
        let elapsed = (ContinuousClock.now - began) / .milliseconds(1)
        let message = try LiveFrameResult(
            head: .init(
                id: frame.id, width: image.width, height: image.height, analysisMs: (elapsed * 10).rounded() / 10,
                dropped: dropped, recording: recording.current?.seconds),
            scan: ScanRecord(scan, options: wanted)
        ).json()
        // A page showing its own camera needs the picture back once the server changes it.
        let jpeg = preview || changed ? try ImageEncoder.encode(shown, as: .jpeg(quality: 80)) : nil
        return (.result(id: frame.id, message: message, preview: jpeg), Self.sightings(in: scan))
    }

    /// `frame` with its faces covered in `style` (nil: as it is), followed between the
    /// scanner's detections and held half a second; no lead, a live view must not lag.
    private func covered(_ frame: PixelBuffer, scan: FrameScan, style: RedactionStyle?, at time: Double) throws -> PixelBuffer {
        guard let style else {
            redactor = nil
            return frame
        }
        if redactor?.configuration.style != style {
            redactor = try StreamRedactor(scannedElsewhere: Redactor.Configuration(style: style, hold: 0.5, lead: 0))
        }
        return try redactor?.push(frame, scan: scan, at: time).last?.pixelBuffer ?? frame
    }

    /// What a clip can be kept of in `scan`.
    private static func events(in scan: FrameScan) -> Set<CameraEvent> {
        var events = Set<CameraEvent>()
        if !scan.faces.isEmpty { events.insert(.face) }
        if !scan.barcodes.isEmpty { events.insert(.code) }
        if !scan.bodies.isEmpty { events.insert(.person) }
        return events
    }

    private static func sightings(in scan: FrameScan) -> LiveSightings {
        var sightings = LiveSightings()
        for event in scan.events {
            switch (event.kind, event.type) {
            case (.face, .appeared): sightings.appearedFaces += Int(event.id).map { [$0] } ?? []
            case (.face, .lost): sightings.lostFaces += Int(event.id).map { [$0] } ?? []
            case (.barcode, .appeared):
                sightings.newCodes += scan.barcodes.filter { $0.key == event.id }.map { BarcodeRecord($0.observation) }
            default: break
            }
        }
        return sightings
    }

    /// Carries out a client's text command (options, or a recording's start or stop within
    /// `limits`); `started` runs after a recording starts (a camera opens for it).
    /// - Returns: the error to send back, if any.
    func perform(_ text: String, limits: RecordingLimits, started: @Sendable () -> Void = {}) async -> APIError? {
        do {
            switch try LiveCommand(json: text) {
            case .options(let options):
                update(options)
            case .record(let record) where record.record == .start:
                _ = try await recording.start(limits: try limits.lowered(to: record))
                started()
            case .record:
                guard recording.requestStop() else {
                    return APIError(.conflict, code: .notRecording, message: "not recording", hint: #"send {"record":"start"} first"#)
                }
            }
            return nil
        } catch let error as APIError {
            return error
        } catch let error as KameraError {
            return APIError(error)
        } catch {
            return APIError(.internalServerError, code: .writeFailed, message: "\(error)", hint: "see the server's log")
        }
    }
}
