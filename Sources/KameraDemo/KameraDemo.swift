import ArgumentParser
import Foundation
import Kamera
import KameraReports
import KameraTestMedia

/// `kamera-demo`: the main job on built-in defaults, a program of its own so that the `kamera`
/// tool carries no synthetic media. Builds photos with codes in them from
/// Debian's sample media, detects the codes, draws the overlays and checks every payload;
/// finds faces with landmarks in real photos; tracks a face and a code through a short
/// synthetic stream; reads a real page scan; records a crash-safe movie and its thumbnail.
@main
struct KameraDemo: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "kamera-demo",
        abstract: "Detect codes in sample scenes, faces and landmarks in photos, track both through video, read a page scan, record a clip."
    )

    @Option(name: .shortAndLong, help: "Directory for the scenes and annotated images (default: a new temp folder).")
    var output: String?

    @Flag(name: .long, help: "Print every result as `kamera detect`'s JSON instead of a table.")
    var json = false

    func run() async throws {
        do {
            try await demo()
        } catch let error as KameraError {
            StandardStreams.error("kamera-demo: \(error.reason) (\(error.hint))\n")
            throw ExitCode(1)
        }
    }

    private func demo() async throws {
        let directory = try outputDirectory()
        let font = try FontFace.standard()
        var found = 0, expected = 0
        var report = DetectionReport(results: [])
        for (index, scene) in try DemoScenes.codes().enumerated() {
            let scenePath = directory.appendingPathComponent("scene\(index + 1).jpg")
            try ImageEncoder.write(scene.image, to: scenePath, as: .jpeg(quality: 90))
            // Read back from disk so the demo exercises the same path as `kamera detect`.
            let image = try Image(contentsOf: scenePath)
            let observations = try await DetectBarcodesRequest(effort: .thorough).perform(on: image)
            var canvas = Canvas(image.pixelBuffer)
            BarcodeOverlay().draw(observations, on: &canvas, font: font)
            let annotatedPath = directory.appendingPathComponent("scene\(index + 1).annotated.png")
            try ImageEncoder.write(canvas.buffer, to: annotatedPath)
            for code in scene.codes {
                expected += 1
                let expectedText = code.1
                if observations.contains(where: { $0.symbology == code.0 && $0.payloadString == expectedText }) {
                    found += 1
                } else {
                    StandardStreams.error("demo: missed \(code.0.rawValue) \"\(expectedText)\" in \(scenePath.path)\n")
                }
            }
            report.results.append(
                .init(
                    input: scenePath.path, width: image.width, height: image.height,
                    barcodes: observations.map(BarcodeRecord.init), annotated: annotatedPath.path))
        }
        // Text: opencv-doc's page scan turned by 9°, which Tesseract alone cannot read.
        let page = try SampleMedia.photo("imageTextR.png")
        let lines = try await RecognizeTextRequest().perform(on: page)
        var textCanvas = Canvas(page.pixelBuffer)
        TextOverlay().draw(lines.map(\.textObservation), on: &textCanvas)
        let textPath = directory.appendingPathComponent("text.annotated.png")
        try ImageEncoder.write(textCanvas.buffer, to: textPath)
        report.results.append(
            .init(
                input: try SampleMedia.url("imageTextR.png").path, width: page.width, height: page.height,
                barcodes: nil, text: lines.map(TextRecord.init), annotated: textPath.path))

        // People: body poses, hands and the person mask on opencv-doc's photos of a footballer
        // and of a player catching a ball; hands alone on its manual's close-up of a hand.
        var bodiesFound = 0, handsFound = 0
        let peoplePhotos = ["messi5.jpg", "basketball1.png", "handSrc.jpg"]
        for name in peoplePhotos {
            let url = try SampleMedia.url(name)
            let image = try Image(contentsOf: url)
            let handler = ImageRequestHandler(image)
            var canvas = Canvas(image.pixelBuffer.converted(to: .rgb8))
            var result = DetectionReport.FileResult(input: url.path, width: image.width, height: image.height)
            if name == "handSrc.jpg" {
                let hands = try await handler.perform(DetectHumanHandPoseRequest())
                handsFound += hands.count
                HandPoseOverlay().draw(hands, on: &canvas)
                result.hands = hands.map(HandPoseRecord.init)
            } else {
                let (bodies, hands, mask) = try await handler.perform(
                    DetectHumanBodyPoseRequest(), DetectHumanHandPoseRequest(), GeneratePersonSegmentationRequest())
                (bodiesFound, handsFound) = (bodiesFound + bodies.count, handsFound + hands.count)
                PersonMaskOverlay().draw(mask, on: &canvas)
                BodyPoseOverlay().draw(bodies, on: &canvas)
                HandPoseOverlay().draw(hands, on: &canvas)
                (result.bodies, result.hands) = (bodies.map(BodyPoseRecord.init), hands.map(HandPoseRecord.init))
                result.personMask = PersonMaskRecord(mask, quality: .accurate)
            }
            let annotatedPath = directory.appendingPathComponent("people_\(url.deletingPathExtension().lastPathComponent).annotated.png")
            try ImageEncoder.write(canvas.buffer, to: annotatedPath)
            result.annotated = annotatedPath.path
            report.results.append(result)
        }

        // Faces: landmarks and head pose on real photos (opencv-doc and scikit-image).
        var facesFound = 0
        for (name, _) in SampleMedia.facePhotos {
            let url = try SampleMedia.url(name)
            let image = try Image(contentsOf: url)
            let faces = try await DetectFaceLandmarksRequest().perform(on: image)
            facesFound += faces.count
            var canvas = Canvas(image.pixelBuffer.converted(to: .rgb8))
            FaceOverlay().draw(faces, on: &canvas)
            let annotatedPath = directory.appendingPathComponent("faces_\(url.deletingPathExtension().lastPathComponent).annotated.png")
            try ImageEncoder.write(canvas.buffer, to: annotatedPath)
            report.results.append(
                .init(
                    input: url.path, width: image.width, height: image.height, barcodes: nil,
                    faces: faces.map(FaceRecord.init), annotated: annotatedPath.path))
        }

        // Privacy: the faces of a photo covered, as `kamera redact` does.
        let crowd = try Image(contentsOf: try SampleMedia.url("messi5.jpg"))
        let redacted = try Redactor().redact(crowd)
        try ImageEncoder.write(redacted.pixelBuffer, to: directory.appendingPathComponent("messi5.redacted.jpg"))

        // Live: a face and a code moving through two seconds of video, tracked and drawn.
        let live = try Self.liveScan(to: directory.appendingPathComponent("live.annotated.mp4"), font: font)

        // Video: two seconds of the test pattern as a fragmented movie, and its thumbnail.
        let moviePath = directory.appendingPathComponent("pattern.mov")
        let pattern = TestPatternSource(width: 640, height: 360)
        let recorder = try MovieRecorder(url: moviePath, settings: RecordingSettings(width: 640, height: 360, maximumDuration: 2))
        var index = 0
        while try recorder.append(pattern.frame(index).pixelBuffer, at: pattern.frame(index).time) { index += 1 }
        let summary = try recorder.finish()
        let thumbnail = try ThumbnailGenerator(maximumSize: Size(width: 100, height: 0)).image(forVideoAt: moviePath.path, at: 1)
        try ImageEncoder.write(thumbnail, to: directory.appendingPathComponent("pattern_thumbnail.png"))

        try StandardStreams.outputLine(json ? try report.json() : report.table())
        try StandardStreams.outputLine(
            "demo: decoded \(found) of \(expected) codes; found \(facesFound) faces with landmarks in \(SampleMedia.facePhotos.count) photos; "
                + "tracked \(live.faceIDs) face ID(s) and \(live.codes) code(s) through \(live.frames) frames; read \(lines.count) text lines; "
                + "posed \(bodiesFound) bodies and \(handsFound) hands in \(peoplePhotos.count) photos; covered \(redacted.regions.count) face(s) in messi5.jpg; "
                + "recorded \(summary.frames) frames (\(summary.stopReason.rawValue)) and a \(thumbnail.width)×\(thumbnail.height) thumbnail; "
                + "files in \(directory.path)")
        if found < expected || facesFound != SampleMedia.facePhotos.count || live.faceIDs != 1 || live.codes != 1 || bodiesFound != 2
            || handsFound < 4
            || lines.count < 12 || summary.frames != 60 || redacted.regions.isEmpty
        {
            throw ExitCode(1)
        }
    }

    /// Scans a synthetic stream (the astronaut crossing a street photo, a QR code sliding) and
    /// writes the annotated movie.
    static func liveScan(to url: URL, font: FontFace) throws -> (frames: Int, faceIDs: Int, codes: Int) {
        let head = try FaceScene.astronautHead()
        let base = try FaceScene(background: "building.jpg", width: 640, height: 360)
        let scanner = try LiveScanner()
        let recorder = try MovieRecorder(url: url, settings: RecordingSettings(width: 640, height: 360, frameRate: 30))
        var ids = Set<Int>(), codes = Set<String>()
        for i in 0..<60 {
            let t = Double(i) / 30
            var scene = base
            scene.place(head, faceCenter: PixelPoint(x: 140 + 120 * t, y: 150), faceSide: 110, degrees: 20 * sin(2 * t))
            var composer = scene.composer
            try composer.place(
                .qr, payload: .text("https://kamera.dev/live"), pose: CodePose(center: PixelPoint(x: 500, y: 240 - 30 * t), width: 120))
            let result = try scanner.scan(composer.canvas, at: t)
            ids.formUnion(result.faces.map(\.faceID))
            codes.formUnion(result.barcodes.map(\.key))
            var canvas = Canvas(composer.canvas)
            ScanOverlay().draw(result, on: &canvas, font: font)
            _ = try recorder.append(canvas.buffer, at: t)
        }
        _ = try recorder.finish()
        return (60, ids.count, codes.count)
    }

    private func outputDirectory() throws -> URL {
        if let output {
            try FileManager.default.createDirectory(atPath: output, withIntermediateDirectories: true)
            return URL(fileURLWithPath: output)
        }
        var template = Array(URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("kamera-demo.XXXXXX").path.utf8CString)
        guard let made = mkdtemp(&template) else { throw ValidationError("cannot create a temporary directory") }
        return URL(fileURLWithPath: String(cString: made))
    }
}
