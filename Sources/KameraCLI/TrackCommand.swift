import ArgumentParser
import Foundation
import Kamera
import KameraReports

/// `kamera track`: one object (or, with --rectangle, a flat rectangle by its corners) followed
/// through a video from a box on its first frame.
struct TrackCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "track",
        abstract: "Follow an object through a video from a box on the first frame: JSON lines per frame, annotated movie.",
        discussion: """
            Writes one JSON line per frame: {"t":…,"frame":…,"pixelBox":{"x":…,"y":…,"width":…,"height":…},\
            "confidence":…,"lost":…} (pixels, top-left origin; to --events FILE, else stdout). With --rectangle the \
            rectangle (page, card, screen, sign) inside the box is found on the first frame and its "pixelCorners" \
            (topLeft, topRight, bottomRight, bottomLeft) are followed as well. "lost" is true while the confidence is \
            below 0.45 (the target is covered or out of view); a target that comes back is found again. Ctrl-C \
            finishes cleanly.
            """)

    @Argument(help: "A video file (anything FFmpeg reads); - reads the stream from standard input.")
    var input: String

    @Option(name: .long, help: "The object on the first frame: x,y,width,height in pixels, top-left origin.")
    var box: String

    @Flag(name: .long, help: "The box holds a flat rectangle: find it and follow its corners.")
    var rectangle = false

    @Option(name: .long, help: "fast or accurate (default accurate, as Vision).")
    var level: TrackingLevel = .accurate

    @Option(name: .long, help: "Write the JSON lines here instead of stdout.")
    var events: String?

    @Option(name: .long, help: "Write an annotated movie (.mp4, .m4v or .mov) here.")
    var annotate: String?

    @Option(name: .long, parsing: .unconditional, help: "Stop after this many frames.")
    var maxFrames: Int?

    @OptionGroup var overwrite: OverwriteOptions

    /// Below this confidence the target is reported lost.
    static let lostBelow: Float = 0.45

    func validate() throws {
        _ = try parsedBox()
        if let maxFrames, maxFrames < 1 { throw ValidationError("--max-frames must be at least 1") }
        if let annotate { try CommandFailure.validating { try MovieRecorder.validateContainer(of: URL(fileURLWithPath: annotate)) } }
        if let events, events == annotate { throw ValidationError("--events and --annotate name the same file") }
    }

    func parsedBox() throws -> PixelRect {
        let parts = box.split(separator: ",").map { Double($0.trimmingCharacters(in: .whitespaces)) }
        guard parts.count == 4, let x = parts[0], let y = parts[1], let w = parts[2], let h = parts[3],
            [x, y, w, h].allSatisfy(\.isFinite)
        else { throw ValidationError("--box must be x,y,width,height in pixels, e.g. 120,80,200,150") }
        guard w >= 4, h >= 4 else { throw ValidationError("--box must be at least 4×4 pixels") }
        return PixelRect(x: x, y: y, width: w, height: h)
    }

    func run() throws {
        try overwrite.runUntilInterrupted(writing: [events, annotate]) { try track(until: $0) }
    }

    private func track(until interrupt: InterruptFlag) throws {
        try VideoInput.withSeekablePath(input) { try track(path: $0, until: interrupt) }
    }

    private func track(path: String, until interrupt: InterruptFlag) throws {
        // Tracking reads luma only: without an annotated movie to draw in colour, the decoder's
        // own luma plane is all that is converted (no RGB frame, no second conversion to gray).
        let reader = try MovieReader(path: path, outputFormat: annotate == nil ? .gray8 : .rgb8)
        let start = try parsedBox()
        let lines = try EventLines(path: events)
        var recorder: MovieRecorder?
        if let annotate {
            recorder = try MovieRecorder(
                url: URL(fileURLWithPath: annotate),
                settings: RecordingSettings(width: reader.width & ~1, height: reader.height & ~1, frameRate: reader.frameRate ?? 30))
        }
        var objectRequest: TrackObjectRequest?
        var rectangleRequest: TrackRectangleRequest?
        let started = Date()
        var frames = 0, lostFrames = 0, lastReport = 0.0
        while !interrupt.isRaised, maxFrames.map({ frames < $0 }) ?? true, let frame = try reader.nextFrame() {
            let image = Image(pixelBuffer: frame.pixelBuffer)
            if frames == 0 {
                (objectRequest, rectangleRequest) = try makeRequests(start: start, on: image)
            }
            var members: [(String, JSONValue)] = [("t", .number(RecordRounding.seconds(frame.time))), ("frame", .int(frame.index))]
            let outline: [PixelPoint]
            let confidence: Float
            if let rectangleRequest {
                let found = try rectangleRequest.performSynchronously(on: image)
                let record = RectangleRecord(found)
                members.append(("pixelBox", try JSONValueEncoder.encode(record.pixelBox)))
                members.append(("pixelCorners", try JSONValueEncoder.encode(record.pixelCorners)))
                (outline, confidence) = (found.pixelCorners.corners, found.confidence)
            } else if let objectRequest {
                let found = try objectRequest.performSynchronously(on: image)
                members.append(("pixelBox", try JSONValueEncoder.encode(RecordBox(found.pixelBox))))
                (outline, confidence) = (Quad(found.pixelBox).corners, found.confidence)
            } else {
                return
            }
            let lost = confidence < Self.lostBelow
            if lost { lostFrames += 1 }
            members.append(("confidence", .number(RecordRounding.score(Double(confidence)))))
            members.append(("lost", .bool(lost)))
            try lines.emit(JSONValue.object(members).compact())
            frames += 1
            if let recorder {
                var canvas = Canvas(frame.pixelBuffer.format == .rgb8 ? frame.pixelBuffer : frame.pixelBuffer.converted(to: .rgb8))
                // Green while followed; a thin red outline at the last place while lost.
                let width = max(2, Double(max(canvas.buffer.width, canvas.buffer.height)) / 320)
                canvas.stroke(
                    outline, closed: true, lineWidth: lost ? width / 2 : width,
                    color: lost ? Color(red: 230, green: 40, blue: 40) : Color(red: 40, green: 220, blue: 60))
                _ = try recorder.append(
                    canvas.buffer.croppedToEven(width: recorder.settings.width, height: recorder.settings.height), at: frame.time)
            }
            let now = Date().timeIntervalSince(started)
            if now - lastReport >= 1 {
                lastReport = now
                StandardStreams.progress(
                    String(
                        format: "track: %d frames (%.1f fps), lost in %d, t=%.1f s", frames, Double(frames) / max(now, 1e-3), lostFrames,
                        frame.time))
            }
        }
        try lines.close()
        let summary = try recorder?.finish()
        let seconds = Date().timeIntervalSince(started)
        StandardStreams.progress(
            String(
                format: "track: %d frames in %.1f s (%.1f fps), target lost in %d%@", frames, seconds,
                Double(frames) / max(seconds, 1e-3), lostFrames, summary.map { ", annotated movie \($0.path)" } ?? ""))
        StandardStreams.endProgress()
    }

    /// The request for the first frame: the box as an object, or the rectangle found in it.
    private func makeRequests(start: PixelRect, on image: Image) throws -> (TrackObjectRequest?, TrackRectangleRequest?) {
        if !rectangle {
            let request = TrackObjectRequest(detectedObject: DetectedObjectObservation(pixelBox: start, imageSize: image.size))
            request.trackingLevel = level
            return (request, nil)
        }
        // Look a little beyond the box (a rough box cuts corners), for the best rectangle that
        // fills most of it.
        // Whole pixels, so the region's corners map back exactly.
        let margin = (0.1 * max(start.width, start.height)).rounded(.up)
        guard
            let region = PixelRect(
                x: start.x.rounded(.down) - margin, y: start.y.rounded(.down) - margin, width: start.width.rounded(.up) + 2 * margin,
                height: start.height.rounded(.up) + 2 * margin
            ).intersection(PixelRect(x: 0, y: 0, width: Double(image.width), height: Double(image.height)))
        else {
            throw KameraError.invalidArgument("--box lies outside the \(image.width)×\(image.height) frame")
        }
        var detect = DetectRectanglesRequest()
        detect.regionOfInterest = region.normalized(in: image.size)
        detect.minimumAspectRatio = 0.1
        detect.minimumSize = 0.5
        detect.maximumObservations = 0
        let found = try detect.performSynchronously(on: image)
        guard let best = found.first else {
            throw KameraError.notFound(
                "rectangle", in: "the --box on the first frame of \(input)",
                hint: "draw the box round the whole rectangle (all four edges inside it), or track it as an object without --rectangle")
        }
        // Back from the region's pixels to the frame's.
        let shift = PixelPoint(x: region.x, y: region.y)
        let corners = best.pixelCorners
        let placed = Quad(
            topLeft: corners.topLeft + shift, topRight: corners.topRight + shift, bottomRight: corners.bottomRight + shift,
            bottomLeft: corners.bottomLeft + shift)
        let request = TrackRectangleRequest(
            detectedRectangle: RectangleObservation(pixelCorners: placed, imageSize: image.size, confidence: best.confidence))
        request.trackingLevel = level
        return (nil, request)
    }
}

extension TrackingLevel: ExpressibleByArgument {}
