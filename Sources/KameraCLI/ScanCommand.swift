import ArgumentParser
import Dispatch
import Foundation
import Kamera
import KameraReports

/// `kamera scan`: faces and codes tracked through a video or camera stream, as JSON lines,
/// with an optional annotated (fragmented, crash-safe) movie.
struct ScanCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "scan",
        abstract: "Track faces and codes through a video file or camera: JSON lines per frame, events, annotated movie.",
        discussion: """
            Writes one JSON line per frame: {"t":…,"frame":…,"faces":[{"faceID":…,"rollAngle":…,"yawAngle":…,…}],\
            "barcodes":[{"key":…,"state":"appeared|moved|still",…}],"rectangles":[{"rectangleID":…,"detected":…,"pixelCorners":…}] \
            (with --rectangles),"events":[{"type":"appeared|lost","kind":"face|barcode|rectangle","id":…}]} \
            (to --events FILE, else stdout), and a final line with the events of the stream's end. Face IDs stay with a face \
            while it is in view and are never reused; a code unseen for 0.2 s is lost. Angles in degrees. Progress on stderr; \
            Ctrl-C finishes cleanly.
            """)

    @Argument(help: "A video file (anything FFmpeg reads); - reads the stream from standard input.")
    var input: String?

    @Option(name: .long, help: "A V4L2 camera instead of a file, e.g. /dev/video0.")
    var camera: String?

    @OptionGroup(title: "What to track (faces and codes when nothing is named)") var analysis: AnalysisArguments

    @Option(name: .long, help: "Write the JSON lines here instead of stdout.")
    var events: String?

    @Option(name: .long, help: "Write an annotated movie (.mp4, .m4v or .mov) here.")
    var annotate: String?

    @Flag(name: .long, help: "Keep up with real time: skip frames while behind (files are paced at their frame rate).")
    var realtime = false

    @Option(name: .long, parsing: .unconditional, help: "Stop after this many frames.")
    var maxFrames: Int?

    @Option(
        name: .long,
        help:
            "Steady the picture before it is analysed: standard, cinematic, cinematic-extended or auto (frames run 0.5 s behind; positions are in the steadied frames)."
    )
    var stabilize: VideoStabilizationMode?

    @OptionGroup(title: "Camera settings") var cameraSettings: CameraArguments

    @OptionGroup var overwrite: OverwriteOptions

    func validate() throws {
        guard (input == nil) != (camera == nil) else { throw ValidationError("give exactly one source: INPUT or --camera DEVICE") }
        if let maxFrames, maxFrames < 1 { throw ValidationError("--max-frames must be at least 1") }
        if let annotate { try CommandFailure.validating { try MovieRecorder.validateContainer(of: URL(fileURLWithPath: annotate)) } }
        if let events, events == annotate { throw ValidationError("--events and --annotate name the same file") }
        try cameraSettings.requireCamera(camera)
    }

    func run() throws {
        try overwrite.runUntilInterrupted(writing: [events, annotate]) { try scan(until: $0) }
    }

    private func scan(until interrupt: InterruptFlag) throws {
        let opened = try camera.map { try cameraSettings.open(camera: $0) }
        defer { opened?.device?.unlockForConfiguration() }
        let reader = try opened?.reader ?? MovieReader(path: VideoInput.streamed(input!))
        let rate = reader.frameRate ?? 30
        let options = try analysis.options()
        let scanner = try LiveScanner(configuration: try options.liveConfiguration(frameBudget: realtime ? 1 / rate : nil))
        let lines = try EventLines(path: events)
        var recorder: MovieRecorder?
        if let annotate {
            recorder = try MovieRecorder(
                url: URL(fileURLWithPath: annotate),
                settings: RecordingSettings(width: reader.width & ~1, height: reader.height & ~1, frameRate: rate))
        }
        let font = try? FontFace.standard()
        let started = Date()
        var scanned = 0, skipped = 0, lastReport = 0.0
        var facesSeen = Set<Int>(), codesSeen = Set<String>(), bodiesSeen = Set<Int>(), handsSeen = Set<Int>()
        var textFrames = Set<Double>()
        // A file read as fast as it decodes waits for each text detection (text is then found on
        // every other frame or so, and reported one frame late); a camera or --realtime does not.
        let waitsForText = options.detectsText && camera == nil && !realtime
        let background = try options.backgroundEffect(width: reader.width, height: reader.height)
        // Live stabilization holds frames back by its latency; they are analysed as they leave it.
        var stabilizer = try stabilize.map { try LiveVideoStabilizer(mode: $0, frameRate: rate, latency: 0.5) }
        func analyse(_ image: PixelBuffer, at time: Double) throws {
            let result = try scanner.scan(image, at: time)
            scanned += 1
            facesSeen.formUnion(result.faces.map(\.faceID))
            codesSeen.formUnion(result.barcodes.map(\.key))
            bodiesSeen.formUnion(result.bodies.map(\.bodyID))
            handsSeen.formUnion(result.hands.map(\.handID))
            if let text = result.text { textFrames.insert(text.frameTime) }
            try lines.emit(try ScanRecord.line(result, options: options))
            if waitsForText { scanner.waitForText() }
            if let recorder {
                var picture = image.format == .rgb8 ? image : image.converted(to: .rgb8)
                if let background, let mask = result.personMask { picture = try mask.applying(background, to: picture) }
                var canvas = Canvas(picture)
                ScanOverlay().draw(result, on: &canvas, font: font)
                _ = try recorder.append(
                    canvas.buffer.croppedToEven(width: recorder.settings.width, height: recorder.settings.height), at: time)
            }
            let now = Date().timeIntervalSince(started)
            if now - lastReport >= 1 {
                lastReport = now
                StandardStreams.progress(
                    String(
                        format: "scan: %d frames (%.1f fps), %d skipped, t=%.1f s, %@ seen",
                        scanned, Double(scanned) / max(now, 1e-3), skipped, time,
                        Self.counts(
                            faces: facesSeen.count, codes: codesSeen.count, bodies: bodiesSeen.count, hands: handsSeen.count,
                            textFrames: textFrames.count, options)))
            }
        }
        var read = 0
        while !interrupt.isRaised, maxFrames.map({ read < $0 }) ?? true, let frame = try reader.nextFrame() {
            read += 1
            let elapsed = Date().timeIntervalSince(started)
            if realtime && camera == nil {
                // Files play at their own rate; a frame whose time has passed is dropped.
                if frame.time + 1 / rate < elapsed { skipped += 1; continue }
                if frame.time > elapsed { Thread.sleep(forTimeInterval: frame.time - elapsed) }
            }
            guard stabilizer != nil else {
                try analyse(frame.pixelBuffer, at: frame.time)
                continue
            }
            let image = frame.pixelBuffer.format == .rgb8 ? frame.pixelBuffer : frame.pixelBuffer.converted(to: .rgb8)
            for steadied in try stabilizer!.push(image, at: frame.time) { try analyse(steadied.pixelBuffer, at: steadied.time) }
        }
        if stabilizer != nil {
            for steadied in try stabilizer!.finish() { try analyse(steadied.pixelBuffer, at: steadied.time) }
        }
        try lines.emit(try ScanRecord.endLine(scanner.finish()))
        try lines.close()
        let summary = try recorder?.finish()
        let seconds = Date().timeIntervalSince(started)
        StandardStreams.progress(
            String(
                format: "scan: %d frames in %.1f s (%.1f fps), %d skipped, %@%@",
                scanned, seconds, Double(scanned) / max(seconds, 1e-3), skipped,
                Self.counts(
                    faces: facesSeen.count, codes: codesSeen.count, bodies: bodiesSeen.count, hands: handsSeen.count,
                    textFrames: textFrames.count, options),
                summary.map { ", annotated movie \($0.path)" } ?? ""))
        StandardStreams.endProgress()
    }

    /// "3 faces, 1 code, 2 bodies, text on 40 frames": what was looked for, counted.
    private static func counts(faces: Int, codes: Int, bodies: Int, hands: Int, textFrames: Int, _ options: AnalysisOptions) -> String {
        var parts: [String] = []
        if options.detectsFaces(in: .stream) { parts.append("\(faces) faces") }
        if options.readsBarcodes { parts.append("\(codes) codes") }
        if options.bodies == true { parts.append("\(bodies) bodies") }
        if options.hands == true { parts.append("\(hands) hands") }
        if options.detectsText { parts.append("text found on \(textFrames) frames") }
        return parts.isEmpty ? "nothing looked for" : parts.joined(separator: ", ")
    }
}
