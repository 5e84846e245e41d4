import ArgumentParser
import Dispatch
import Foundation
import Kamera

/// `kamera scan`: faces and codes tracked through a video or camera stream, as JSON lines,
/// with an optional annotated (fragmented, crash-safe) movie.
struct ScanCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "scan",
        abstract: "Track faces and codes through a video file or camera: JSON lines per frame, events, annotated movie.",
        discussion: """
            Writes one JSON line per frame: {"t":…,"frame":…,"faces":[{"faceID":…,"rollAngle":…,"yawAngle":…,…}],\
            "barcodes":[{"key":…,"state":"appeared|moved|still",…}],"events":[{"type":"appeared|lost","kind":"face|barcode","id":…}]} \
            (to --events FILE, else stdout), and a final line with the events of the stream's end. Face IDs stay with a face \
            while it is in view and are never reused; a code unseen for 0.2 s is lost. Angles in degrees. Progress on stderr; \
            Ctrl-C finishes cleanly.
            """)

    @Argument(help: "A video file (anything FFmpeg reads).")
    var input: String?

    @Option(name: .long, help: "A V4L2 camera instead of a file, e.g. /dev/video0.")
    var camera: String?

    @Flag(name: .long, help: "Track faces (default when neither --faces nor --barcodes is given: both).")
    var faces = false

    @Flag(name: .long, help: "With faces: landmark regions per face.")
    var landmarks = false

    @Flag(name: .long, help: "Read codes.")
    var barcodes = false

    @Option(name: .long, help: "Write the JSON lines here instead of stdout.")
    var events: String?

    @Option(name: .long, help: "Write an annotated movie (.mp4 or .mov) here.")
    var annotate: String?

    @Flag(name: .long, help: "Keep up with real time: skip frames while behind (files are paced at their frame rate).")
    var realtime = false

    @Option(name: .long, help: "Stop after this many frames.")
    var maxFrames: Int?

    func validate() throws {
        guard (input == nil) != (camera == nil) else { throw ValidationError("give exactly one source: INPUT or --camera DEVICE") }
    }

    func run() throws {
        let interrupt = InterruptFlag()
        do {
            try scan(until: interrupt)
        } catch let error as KameraError {
            FileHandle.standardError.write(Data("\nkamera: \(error.reason) (\(error.hint))\n".utf8))
            throw ExitCode(1)
        }
    }

    private func scan(until interrupt: InterruptFlag) throws {
        let reader = camera != nil ? try MovieReader(camera: CameraDevice(path: camera!, name: camera!)) : try MovieReader(path: input!)
        let both = !faces && !barcodes
        let rate = reader.frameRate ?? 30
        let scanner = try LiveScanner(configuration: LiveScanner.Configuration(
            detectsFaces: faces || both, detectsLandmarks: landmarks,
            barcodes: barcodes || both ? DetectBarcodesRequest(effort: .fast) : nil,
            frameBudget: realtime ? 1 / rate : nil))
        let output: FileHandle
        if let events {
            guard FileManager.default.createFile(atPath: events, contents: nil) , let handle = FileHandle(forWritingAtPath: events) else {
                throw KameraError.writeFailed(path: events, reason: "cannot create the file")
            }
            output = handle
        } else {
            output = FileHandle.standardOutput
        }
        defer { if events != nil { try? output.close() } }
        var recorder: MovieRecorder?
        if let annotate {
            recorder = try MovieRecorder(url: URL(fileURLWithPath: annotate),
                                         settings: RecordingSettings(width: reader.width & ~1, height: reader.height & ~1, frameRate: rate))
        }
        let font = try? FontFace.standard()
        let started = Date()
        var scanned = 0, skipped = 0, lastReport = 0.0
        var facesSeen = Set<Int>(), codesSeen = Set<String>()
        while !interrupt.isRaised, maxFrames.map({ scanned + skipped < $0 }) ?? true,
              let frame = try reader.nextFrame() {
            let elapsed = Date().timeIntervalSince(started)
            if realtime && camera == nil {
                // Files play at their own rate; a frame whose time has passed is dropped.
                if frame.time + 1 / rate < elapsed { skipped += 1; continue }
                if frame.time > elapsed { Thread.sleep(forTimeInterval: frame.time - elapsed) }
            }
            let result = try scanner.scan(frame.pixelBuffer, at: frame.time)
            scanned += 1
            result.faces.forEach { facesSeen.insert($0.faceID) }
            result.barcodes.forEach { codesSeen.insert($0.key) }
            output.write(Data((ScanRecord.line(result) + "\n").utf8))
            if let recorder {
                var canvas = Canvas(frame.pixelBuffer.format == .rgb8 ? frame.pixelBuffer : frame.pixelBuffer.converted(to: .rgb8))
                ScanOverlay().draw(result, on: &canvas, font: font)
                _ = try recorder.append(canvas.buffer.croppedToEven(width: recorder.settings.width, height: recorder.settings.height),
                                        at: frame.time)
            }
            let now = Date().timeIntervalSince(started)
            if now - lastReport >= 1 {
                lastReport = now
                FileHandle.standardError.write(Data(String(format: "\rscan: %d frames (%.1f fps), %d skipped, t=%.1f s, %d faces, %d codes seen",
                                                           scanned, Double(scanned) / max(now, 1e-3), skipped, frame.time,
                                                           facesSeen.count, codesSeen.count).utf8))
            }
        }
        let end = scanner.finish()
        output.write(Data((ScanRecord.endLine(end) + "\n").utf8))
        let summary = try recorder?.finish()
        let seconds = Date().timeIntervalSince(started)
        FileHandle.standardError.write(Data(String(format: "\rscan: %d frames in %.1f s (%.1f fps), %d skipped, %d faces, %d codes%@\n",
                                                   scanned, seconds, Double(scanned) / max(seconds, 1e-3), skipped, facesSeen.count,
                                                   codesSeen.count, summary.map { ", annotated movie \($0.path)" } ?? "").utf8))
    }
}

/// The JSON line `kamera scan` writes per frame.
enum ScanRecord {
    static func line(_ scan: FrameScan) -> String {
        func round(_ v: Double, _ digits: Double) -> JSONValue { .number((v * digits).rounded() / digits) }
        let faces: [JSONValue] = scan.faces.map { face in
            guard case .object(let members) = FaceRecord(observation: face.observation).jsonValue else { return .null }
            return .object([("faceID", .int(face.faceID)), ("rollAngle", round(face.rollAngle, 10)), ("yawAngle", round(face.yawAngle, 10)),
                            ("detected", .bool(face.isDetected))] + members)
        }
        let codes: [JSONValue] = scan.barcodes.map { code in
            guard case .object(let members) = BarcodeRecord(code.observation).jsonValue else { return .null }
            return .object([("key", .string(code.key)), ("state", .string(code.state.rawValue))] + members)
        }
        return JSONValue.object([
            ("t", round(scan.time, 1000)), ("frame", .int(scan.frameIndex)),
            ("faces", .array(faces)), ("barcodes", .array(codes)), ("events", events(scan.events)),
        ]).compact()
    }

    static func endLine(_ events: [ScanEvent]) -> String {
        JSONValue.object([("t", .number(events.first?.time ?? 0)), ("end", .bool(true)), ("events", self.events(events))]).compact()
    }

    private static func events(_ events: [ScanEvent]) -> JSONValue {
        .array(events.map { .object([("type", .string($0.type.rawValue)), ("kind", .string($0.kind.rawValue)), ("id", .string($0.id))]) })
    }
}
