import Foundation
import Kamera
import KameraTestMedia
import KameraTestTiers
import Testing

@Suite(.tier(.endToEnd)) struct ScanCLITests {
    /// A 2 s synthetic movie: a face moving right and a QR code that leaves after 1 s.
    func writeMovie(to url: URL) throws {
        let head = try FaceScene.astronautHead()
        let base = try FaceScene(background: "building.jpg", width: 640, height: 480)
        let recorder = try MovieRecorder(url: url, settings: RecordingSettings(width: 640, height: 480, frameRate: 30))
        for i in 0..<60 {
            let t = Double(i) / 30
            var scene = base
            scene.place(head, faceCenter: PixelPoint(x: 150 + 100 * t, y: 200), faceSide: 120, degrees: 0)
            var composer = scene.composer
            if t < 1 {
                try composer.place(.qr, payload: .text("scan me"), pose: CodePose(center: PixelPoint(x: 480, y: 330), width: 150))
            }
            _ = try recorder.append(composer.canvas, at: t)
        }
        _ = try recorder.finish()
    }

    @Test func scanWritesLinesEventsAndAnAnnotatedMovie() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("kamera-scan-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let movie = directory.appendingPathComponent("in.mp4")
        try writeMovie(to: movie)
        let events = directory.appendingPathComponent("events.jsonl"), annotated = directory.appendingPathComponent("out.mp4")
        let run = try kamera(["scan", movie.path, "--events", events.path, "--annotate", annotated.path])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("scan: 60 frames"))
        let lines = try String(contentsOf: events, encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 61)  // one per frame and the end line
        let records = lines.compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        #expect(records.count == 61)
        // Keys in the documented order.
        #expect(lines[0].hasPrefix("{\"t\":") && lines[0].contains("\"frame\":0,\"faces\":"))
        let faceIDs = Set(records.flatMap { ($0["faces"] as? [[String: Any]] ?? []).compactMap { $0["faceID"] as? Int } })
        #expect(faceIDs == [1])
        let allEvents = records.flatMap { $0["events"] as? [[String: String]] ?? [] }
        #expect(allEvents.contains { $0["type"] == "appeared" && $0["kind"] == "face" && $0["id"] == "1" })
        #expect(allEvents.contains { $0["type"] == "appeared" && $0["kind"] == "barcode" && $0["id"] == "qr:scan me" })
        // The code left at 1 s; lost about 0.2 s later.
        let lostAt =
            records.first { ($0["events"] as? [[String: String]] ?? []).contains { $0["type"] == "lost" && $0["kind"] == "barcode" } }?["t"]
            as? Double
        #expect(lostAt.map { $0 >= 1.15 && $0 <= 1.3 } == true, "lost at \(String(describing: lostAt))")
        #expect((records.last?["end"] as? Bool) == true)
        let firstFace = try #require((records[5]["faces"] as? [[String: Any]])?.first)
        #expect(firstFace["roll"] is Double && firstFace["yaw"] is Double && firstFace["faceID"] is Int && firstFace["pixelBox"] != nil)
        // The annotated movie has every frame, with the red face layer drawn.
        let reader = try MovieReader(path: annotated.path)
        var frames = 0
        var redPixels = 0
        while let frame = try reader.nextFrame() {
            if frames == 30 {
                let rgb = frame.pixelBuffer
                for y in stride(from: 100, to: 320, by: 2) {
                    for x in stride(from: 150, to: 400, by: 2) {
                        let p = rgb.pixel(x: x, y: y)
                        if p[0] > 180 && p[1] < 80 && p[2] < 80 { redPixels += 1 }
                    }
                }
            }
            frames += 1
        }
        #expect(frames == 60)
        #expect(redPixels > 20, "red pixels \(redPixels)")
    }

    @Test("scan --stabilize: a code on a shaken camera is found where the steadied picture has it, moving far less")
    func scanStabilized() throws {
        // A still scene seen through a window that shakes by up to 8 px each way, 3 s at 30 fps.
        var composer = SceneComposer(background: try SampleMedia.photo("building.jpg").pixelBuffer, width: 680, height: 520)
        try composer.place(.qr, payload: .text("steady"), pose: CodePose(center: PixelPoint(x: 340, y: 260), width: 140))
        let scene = composer.canvas
        var random = SeededRandom(seed: 7)
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("kamera-shaken-code-\(UUID()).mp4")
        defer { try? FileManager.default.removeItem(at: url) }
        let recorder = try MovieRecorder(url: url, settings: RecordingSettings(width: 640, height: 480, frameRate: 30, quality: 14))
        for i in 0..<90 {
            let x = 20 + Int.random(in: -8...8, using: &random), y = 20 + Int.random(in: -8...8, using: &random)
            _ = try recorder.append(scene.cropped(to: PixelRect(x: Double(x), y: Double(y), width: 640, height: 480)), at: Double(i) / 30)
        }
        _ = try recorder.finish()
        /// The code's centre on each frame it was read on, from the JSON lines.
        func centres(_ extra: [String]) throws -> [Double] {
            let run = try kamera(["scan", url.path, "--barcodes"] + extra)
            #expect(run.status == 0, "\(run.stderr)")
            let records = run.stdout.split(separator: "\n").compactMap {
                try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
            }
            #expect(records.count == 91, "a line per frame and the end line")
            return records.compactMap { record -> Double? in
                guard let code = (record["barcodes"] as? [[String: Any]])?.first, let box = code["pixelBox"] as? [String: Double],
                    let x = box["x"], let width = box["width"]
                else { return nil }
                return x + width / 2
            }
        }
        let shaken = try centres([]), steadied = try centres(["--stabilize", "standard"])
        #expect(shaken.count >= 80 && steadied.count >= 80, "read on \(shaken.count) and \(steadied.count) frames")
        let jerk = { (values: [Double]) -> Double in
            zip(values, zip(values.dropFirst(), values.dropFirst(2))).map { a, bc in abs(a - 2 * bc.0 + bc.1) }.reduce(0, +)
                / Double(max(1, values.count - 2))
        }
        #expect(jerk(steadied) < jerk(shaken) / 3, "mean jerk \(jerk(steadied)) px steadied against \(jerk(shaken)) px shaken")
    }

    @Test func scanRunsOnRealVideoAndRejectsBadInput() throws {
        let run = try kamera(["scan", try SampleMedia.url("Megamind.avi").path, "--faces", "--max-frames", "60"])
        #expect(run.status == 0, "\(run.stderr)")
        let lines = run.stdout.split(separator: "\n")
        #expect(lines.count == 61)
        #expect(run.stdout.contains("\"faceID\":1"))
        let vtest = try kamera(["scan", try SampleMedia.url("vtest.avi").path, "--barcodes", "--max-frames", "30", "--realtime"])
        #expect(vtest.status == 0, "\(vtest.stderr)")
        let text = FileManager.default.temporaryDirectory.appendingPathComponent("not-a-video-\(UUID().uuidString).mp4")
        try Data("hello".utf8).write(to: text)
        defer { try? FileManager.default.removeItem(at: text) }
        let bad = try kamera(["scan", text.path])
        #expect(bad.status == 1 && bad.stderr.contains("kamera:"))
        #expect(try kamera(["scan"]).status != 0)
        #expect(try kamera(["scan", "--camera", "/dev/video99"]).status == 1)
    }

    @Test func scanReadsTextOnAFile() throws {
        // 20 frames of a room with a sign: a file is read faster than real time, so the scan
        // waits for each text detection and reports it with the next frame.
        let movie = FileManager.default.temporaryDirectory.appendingPathComponent("kamera-sign-\(UUID().uuidString).mp4")
        defer { try? FileManager.default.removeItem(at: movie) }
        let room = try SampleMedia.photo("home.jpg").pixelBuffer.converted(to: .rgb8).resized(width: 640, height: 480)
        var canvas = Canvas(room)
        canvas.fill(rect: PixelRect(x: 380, y: 250, width: 230, height: 110), color: Color(red: 30, green: 120, blue: 60))
        for (row, line) in ["EXIT 24", "Platform 3"].enumerated() {
            canvas.draw(
                text: line, at: PixelPoint(x: 395, y: 262 + 48 * Double(row)), size: 36, color: .white, font: try FontFace.standard())
        }
        let recorder = try MovieRecorder(url: movie, settings: RecordingSettings(width: 640, height: 480, frameRate: 30))
        for i in 0..<20 { _ = try recorder.append(canvas.buffer, at: Double(i) / 30) }
        _ = try recorder.finish()
        let run = try kamera(["scan", "--text", movie.path])
        #expect(run.status == 0, "\(run.stderr)")
        let frames = run.stdout.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }.filter { $0["end"] == nil }
        #expect(frames.count == 20)
        let read = frames.compactMap { ($0["text"] as? [[String: Any]])?.compactMap { $0["string"] as? String } }
        #expect(read.count >= 18, "text on \(read.count) of 20 frames")
        #expect(read.last == ["EXIT 24", "Platform 3"], "\(read.last ?? [])")
    }
}
