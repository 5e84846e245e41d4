import Foundation
import Kamera
import KameraTestMedia
import KameraTestTiers
import Testing

/// `kamera redact` as a user runs it: real faces in, covered movie and photo out, sound and
/// rotation kept, and nothing left under the output's name when anything goes wrong.
@Suite(.tier(.endToEnd)) struct RedactCLITests {
    let dir: URL = {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("kamera-redact-\(UUID().uuidString)")
        try! FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }()

    /// The upright street of frame `i` of `count`: the astronaut's face crossing it left to right.
    private func street(_ i: Int, of count: Int) throws -> (frame: PixelBuffer, face: PixelRect) {
        var scene = try FaceScene(background: "building.jpg", width: 640, height: 360)
        let x = -60 + 760 * Double(i) / Double(count - 1)
        scene.place(try FaceScene.astronautHead(), faceCenter: PixelPoint(x: x, y: 170), faceSide: 120, degrees: 0)
        return (scene.image, PixelRect(x: x - 60, y: 110, width: 120, height: 120))
    }

    /// A phone-style movie: frames stored turned a quarter anticlockwise with a display
    /// rotation of 90°, and (with `sound`) an AAC tone muxed in by the ffmpeg tool.
    private func phoneMovie(frames: Int, sound: Bool) throws -> URL {
        let silent = dir.appendingPathComponent("silent.mp4")
        let recorder = try MovieRecorder(url: silent, settings: RecordingSettings(width: 360, height: 640, frameRate: 30, rotation: 90))
        for i in 0..<frames { _ = try recorder.append(try street(i, of: frames).frame.rotated(byQuarterTurns: 3), at: Double(i) / 30) }
        _ = try recorder.finish()
        guard sound else { return silent }
        let movie = dir.appendingPathComponent("phone.mp4")
        let mux = try tool(
            "ffmpeg",
            [
                "-v", "error", "-y", "-i", silent.path, "-f", "lavfi", "-i", "sine=frequency=440:duration=\(Double(frames) / 30)",
                "-c:v", "copy", "-c:a", "aac", "-shortest", movie.path,
            ])
        #expect(mux.status == 0, "\(mux.stderr)")
        return movie
    }

    private func tool(_ name: String, _ arguments: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/\(name)")
        process.arguments = arguments
        let out = Pipe(), err = Pipe()
        (process.standardOutput, process.standardError) = (out, err)
        try process.run()
        let stdout = out.fileHandleForReading.readDataToEndOfFile(), stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: stdout, as: UTF8.self), String(decoding: stderr, as: UTF8.self))
    }

    /// The MD5 of a movie's audio packets as stored (unchanged bytes give the same sum).
    private func audioDigest(_ movie: URL) throws -> String {
        try tool("ffmpeg", ["-v", "error", "-i", movie.path, "-map", "0:a", "-c", "copy", "-f", "md5", "-"]).stdout
    }

    private func change(_ a: PixelBuffer, _ b: PixelBuffer, in box: PixelRect) -> Double {
        let x0 = max(0, Int(box.minX)), x1 = min(a.width, Int(box.maxX)), y0 = max(0, Int(box.minY)), y1 = min(a.height, Int(box.maxY))
        var sum = 0
        for y in y0..<y1 {
            for x in x0..<x1 {
                for c in 0..<3 { sum += abs(Int(a.bytes[y * a.bytesPerRow + x * 3 + c]) - Int(b.bytes[y * b.bytesPerRow + x * 3 + c])) }
            }
        }
        return Double(sum) / Double(max(1, (x1 - x0) * (y1 - y0) * 3))
    }

    private var leftovers: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []).filter { $0.contains("kamera-partial") }
    }

    @Test func aPhoneVideoIsCoveredWithItsSoundAndRotationKept() throws {
        defer { try? FileManager.default.removeItem(at: dir) }
        let movie = try phoneMovie(frames: 45, sound: true)
        let output = dir.appendingPathComponent("covered.mov"), audit = dir.appendingPathComponent("audit.jsonl")
        let run = try kamera(["redact", movie.path, "-o", output.path, "--audit", audit.path])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("redact: \(output.path): 45 frames"), "\(run.stderr)")
        // The sound is the input's, packet for packet.
        let digest = try audioDigest(movie)
        let coveredDigest = try audioDigest(output)
        #expect(digest.hasPrefix("MD5=") && digest == coveredDigest)
        let original = try MovieReader(path: movie.path), covered = try MovieReader(path: output.path)
        #expect(covered.rotation == 90 && covered.width == 360 && covered.height == 640)
        let lines = try String(contentsOf: audit, encoding: .utf8).split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
        #expect(lines.count == 45)
        var index = 0
        while let before = try original.nextFrame(), let after = try covered.nextFrame() {
            let face = try street(index, of: 45).face
            let visible = (face.intersection(PixelRect(x: 0, y: 0, width: 640, height: 360))?.area ?? 0) / face.area
            if visible >= 0.25 {
                // The face's box as stored (the frame turned a quarter anticlockwise).
                let stored = PixelRect(x: face.minY, y: 640 - face.maxX, width: face.height, height: face.width)
                #expect(change(before.pixelBuffer, after.pixelBuffer, in: stored) > 12, "frame \(index)")
                #expect((lines[index]["areas"] as? [[String: Any]])?.contains { $0["kind"] as? String == "face" } == true)
            }
            index += 1
        }
        #expect(index == 45)
    }

    @Test func aPhotoIsCoveredAndAudited() throws {
        defer { try? FileManager.default.removeItem(at: dir) }
        let output = dir.appendingPathComponent("messi.png"), audit = dir.appendingPathComponent("audit.jsonl")
        let run = try kamera([
            "redact", SampleMedia.directory.appendingPathComponent("messi5.jpg").path, "-o", output.path, "--audit", audit.path,
            "--style", "pixelate",
        ])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("1 face covered"), "\(run.stderr)")
        let record = try JSONSerialization.jsonObject(with: try Data(contentsOf: audit)) as? [String: Any]
        #expect((record?["areas"] as? [[String: Any]])?.first?["source"] as? String == "detected")
        let image = try Image(contentsOf: output)
        #expect(image.width == 548 && image.height == 342)
    }

    @Test func failuresLeaveNoOutput() throws {
        defer { try? FileManager.default.removeItem(at: dir) }
        let output = dir.appendingPathComponent("out.mp4")
        let garbage = dir.appendingPathComponent("garbage.mp4")
        try Data((0..<20_000).map { UInt8(truncatingIfNeeded: $0 &* 7919 &+ 13) }).write(to: garbage)
        let notes = dir.appendingPathComponent("notes.txt")
        try Data("not a movie\n".utf8).write(to: notes)
        for input in [garbage, notes] {
            let run = try kamera(["redact", input.path, "-o", output.path])
            #expect(run.status == 1 && run.stderr.contains("kamera:"), "\(run.stderr)")
        }
        // A photo cannot become a movie, nor a movie a photo; an output folder that is not there.
        let photo = SampleMedia.directory.appendingPathComponent("messi5.jpg").path
        #expect(try kamera(["redact", photo, "-o", output.path]).status == 64)
        let movie = try phoneMovie(frames: 10, sound: false)
        #expect(try kamera(["redact", movie.path, "-o", dir.appendingPathComponent("still.jpg").path]).status == 64)
        let missing = try kamera(["redact", movie.path, "-o", dir.appendingPathComponent("no/such/out.mp4").path])
        #expect(missing.status == 1 && missing.stderr.contains("no/such"), "\(missing.stderr)")
        #expect(try kamera(["redact", movie.path, "-o", movie.path]).status == 64)
        #expect(try kamera(["redact", movie.path, "-o", output.path, "--hold", "nan"]).status == 64)
        let follow = try kamera(["redact", movie.path, "-o", output.path, "--follow", "-1"])
        #expect(follow.status == 64 && follow.stderr.contains("--follow"), "\(follow.stderr)")
        // A failed run's audit is not left either.
        let audit = dir.appendingPathComponent("audit.jsonl")
        #expect(try kamera(["redact", garbage.path, "-o", output.path, "--audit", audit.path]).status == 1)
        #expect(!FileManager.default.fileExists(atPath: output.path) && !FileManager.default.fileExists(atPath: audit.path))
        #expect(leftovers.isEmpty, "\(leftovers)")
    }

    @Test func anInterruptedRunLeavesNothingUnderTheOutputsName() throws {
        defer { try? FileManager.default.removeItem(at: dir) }
        let movie = try phoneMovie(frames: 300, sound: false)
        let output = dir.appendingPathComponent("out.mp4")
        let directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        var executable = directory.appendingPathComponent("kamera")
        if !FileManager.default.fileExists(atPath: executable.path) {
            executable = directory.deletingLastPathComponent().appendingPathComponent("kamera")
        }
        let process = Process()
        process.executableURL = executable
        process.arguments = ["redact", movie.path, "-o", output.path]
        let err = Pipe()
        process.standardError = err
        try process.run()
        // Wait until frames are being written, then Ctrl-C.
        let deadline = Date().addingTimeInterval(20)
        while leftovers.isEmpty && Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        Thread.sleep(forTimeInterval: 0.5)
        kill(process.processIdentifier, SIGINT)
        let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 130, "\(stderr)")
        #expect(stderr.contains("interrupted"), "\(stderr)")
        #expect(!FileManager.default.fileExists(atPath: output.path))
        #expect(leftovers.isEmpty, "\(leftovers)")
    }
}
