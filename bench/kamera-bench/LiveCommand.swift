import ArgumentParser
import Foundation
import Kamera
import KameraTestMedia

/// Writes the live-scanning benchmark movies (live-dataset) and measures LiveScanner's frame
/// rate on them (live): frames are decoded first, so only scanning is timed.
struct LiveDatasetCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "live-dataset", abstract: "Write the live benchmark movies.")

    @Argument(help: "Output directory.")
    var output: String

    func run() throws {
        let directory = URL(fileURLWithPath: output)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let head = try FaceScene.astronautHead()
        for (width, height) in [(640, 480), (1280, 720)] {
            let url = directory.appendingPathComponent("live_\(width)x\(height).mp4")
            if FileManager.default.fileExists(atPath: url.path) { continue }
            let base = try FaceScene(background: "home.jpg", width: width, height: height)
            let recorder = try MovieRecorder(url: url, settings: RecordingSettings(width: width, height: height, frameRate: 30))
            let s = Double(height) / 480
            for i in 0..<150 {
                let t = Double(i) / 30
                var scene = base
                // Three faces moving and turning, two codes sliding.
                scene.place(head, faceCenter: PixelPoint(x: (120 + 60 * t) * s, y: 150 * s), faceSide: 110 * s, degrees: 15 * sin(t))
                scene.place(head, faceCenter: PixelPoint(x: (520 - 50 * t) * s, y: 170 * s), faceSide: 90 * s, degrees: -10)
                scene.place(head, faceCenter: PixelPoint(x: 330 * s, y: (260 + 20 * sin(2 * t)) * s), faceSide: 70 * s, degrees: 5)
                var composer = scene.composer
                try composer.place(
                    .qr, payload: .text("live \(width)"),
                    pose: CodePose(center: PixelPoint(x: (140 + 30 * t) * s, y: 380 * s), width: 110 * s))
                try composer.place(
                    .code128, payload: .text("KAMERA-42"),
                    pose: CodePose(center: PixelPoint(x: 480 * s, y: (390 - 10 * t) * s), width: 180 * s))
                _ = try recorder.append(composer.canvas, at: t)
            }
            _ = try recorder.finish()
        }
        try writeTextMovie(directory.appendingPathComponent("live_text_640x480.mp4"), head: head)
        print("movies in \(directory.path)")
    }

    /// The 640×480 movie again with a sign on the wall ("EXIT 24" over "Platform 3"), for
    /// text found at its own pace while faces and codes are followed.
    static let signLines = ["EXIT 24", "Platform 3"]

    func writeTextMovie(_ url: URL, head: (image: PixelBuffer, face: PixelRect)) throws {
        if FileManager.default.fileExists(atPath: url.path) { return }
        let base = try FaceScene(background: "home.jpg", width: 640, height: 480)
        let recorder = try MovieRecorder(url: url, settings: RecordingSettings(width: 640, height: 480, frameRate: 30))
        let font = try FontFace.standard()
        for i in 0..<150 {
            let t = Double(i) / 30
            var scene = base
            scene.place(head, faceCenter: PixelPoint(x: 120 + 60 * t, y: 150), faceSide: 110, degrees: 15 * sin(t))
            scene.place(head, faceCenter: PixelPoint(x: 520 - 50 * t, y: 170), faceSide: 90, degrees: -10)
            var composer = scene.composer
            try composer.place(.qr, payload: .text("live text"), pose: CodePose(center: PixelPoint(x: 140 + 30 * t, y: 380), width: 110))
            var canvas = Canvas(composer.canvas)
            canvas.fill(rect: PixelRect(x: 380, y: 250, width: 230, height: 110), color: Color(red: 30, green: 120, blue: 60))
            for (row, line) in Self.signLines.enumerated() {
                canvas.draw(text: line, at: PixelPoint(x: 395, y: 262 + 48 * Double(row)), size: 36, color: .white, font: font)
            }
            _ = try recorder.append(canvas.buffer, at: t)
        }
        _ = try recorder.finish()
    }
}

struct LiveCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "live", abstract: "Frames per second of LiveScanner on a movie.")

    @Argument(help: "A movie.")
    var path: String

    @Flag(help: "Faces only (no codes), like the MediaPipe peer.")
    var facesOnly = false

    @Flag(help: "Also find text (at its own pace, on a thread of its own); prints text detections per second.")
    var text = false

    @Flag(help: "Feed frames at the movie's own rate (as a camera does) instead of as fast as they are scanned.")
    var paced = false

    @Option(help: "Passes over the frames (the median rate is printed).")
    var passes = 5

    func run() throws {
        let reader = try MovieReader(path: path)
        var frames: [VideoFrame] = []
        while let frame = try reader.nextFrame() { frames.append(frame) }
        // Several passes over the frames, each with a fresh scanner, and the median rate: one
        // pass takes about a second, and this shared machine's speed wanders by ±20 % over seconds.
        var rates: [Double] = []
        var faces = 0, codes = 0, interval = 1
        var textRates: [Double] = []
        var lines: [String] = []
        for _ in 0..<passes {
            let scanner = try LiveScanner(
                configuration: LiveScanner.Configuration(
                    barcodes: facesOnly ? nil : DetectBarcodesRequest(effort: .fast), frameBudget: 1 / 30,
                    text: text ? DetectTextRectanglesRequest() : nil))
            (faces, codes) = (0, 0)
            var detections = Set<Double>()
            let start = DispatchTime.now().uptimeNanoseconds
            for frame in frames {
                if paced {
                    let due = start + UInt64(max(0, frame.time - frames[0].time) * 1e9)
                    let now = DispatchTime.now().uptimeNanoseconds
                    if due > now { usleep(UInt32(min(1_000_000, (due - now) / 1000))) }
                }
                let scan = try scanner.scan(frame.pixelBuffer, at: frame.time)
                faces += scan.faces.count
                codes += scan.barcodes.count
                if let found = scan.text {
                    detections.insert(found.frameTime)
                    lines = found.lines.map { (line: TextObservation) in line.string }
                }
            }
            let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
            rates.append(Double(frames.count) / seconds)
            textRates.append(Double(detections.count) / seconds)
            interval = scanner.detectionInterval
        }
        let fps = rates.sorted()[rates.count / 2]
        let textFPS = textRates.sorted()[textRates.count / 2]
        let read = String(decoding: try JSONEncoder().encode(lines), as: UTF8.self)
        print(
            #"{"file":"\#(URL(fileURLWithPath: path).lastPathComponent)","frames":\#(frames.count),"fps":\#(fps),"faces_per_frame":\#(Double(faces) / Double(frames.count)),"codes_per_frame":\#(Double(codes) / Double(frames.count)),"detection_interval":\#(interval),"text_fps":\#(textFPS),"text":\#(read)}"#
        )
    }
}
