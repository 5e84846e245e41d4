import Foundation
import HummingbirdWSClient
import Kamera
import KameraTestMedia
import KameraTestTiers
import Logging
import NIOCore
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `kamera serve` as a process: the API answers with exactly `kamera detect`'s JSON, and a
/// server killed with SIGKILL in the middle of a recording loses nothing it acknowledged.
@Suite(.serialized, .tier(.endToEnd)) struct ServeCLITests {
    /// A running `kamera serve --port 0` and the port it chose. `@unchecked Sendable`: after
    /// launch it is only read (its pid, its port), and killing it from another task is the point.
    final class ServerProcess: @unchecked Sendable {
        let process = Process()
        let port: Int

        init(data: URL, arguments extra: [String] = []) throws {
            let directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
            var executable = directory.appendingPathComponent("kamera")
            if !FileManager.default.fileExists(atPath: executable.path) {
                executable = directory.deletingLastPathComponent().appendingPathComponent("kamera")
            }
            process.executableURL = executable
            process.arguments = ["serve", "--port", "0", "--data", data.path] + extra
            let out = Pipe()
            process.standardOutput = out
            process.standardError = FileHandle.nullDevice
            try process.run()
            // "kamera: serving http://127.0.0.1:PORT/ …"
            var line = Data()
            while !line.contains(UInt8(ascii: "\n")) {
                let chunk = out.fileHandleForReading.availableData
                guard !chunk.isEmpty else { break }
                line += chunk
            }
            let text = String(decoding: line, as: UTF8.self)
            guard let range = text.range(of: #"127\.0\.0\.1:(\d+)/"#, options: .regularExpression) else {
                process.terminate()
                throw CocoaError(.fileReadCorruptFile, userInfo: [NSLocalizedDescriptionKey: "no URL in: \(text)"])
            }
            port = Int(text[range].dropFirst("127.0.0.1:".count).dropLast())!
        }

        func kill() {
            Foundation.kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }

        func stop() {
            process.terminate()
            process.waitUntilExit()
        }

        func request(_ path: String, method: String = "GET", body: Data? = nil) async throws -> (Int, Data) {
            var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)\(path)")!)
            request.httpMethod = method
            request.httpBody = body
            let (data, response) = try await URLSession.shared.data(for: request)
            return ((response as? HTTPURLResponse)?.statusCode ?? 0, data)
        }
    }

    func dataDirectory() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("kamera-serve-\(UUID())")
    }

    @Test("POST /v1/detect answers with exactly the JSON kamera detect prints for the same file")
    func sameJSONAsDetect() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("kamera-serve-\(UUID()).jpg")
        var scene = try FaceScene(background: "building.jpg", width: 800, height: 600)
        scene.place(try FaceScene.astronautHead(), faceCenter: PixelPoint(x: 250, y: 260), faceSide: 160, degrees: -10)
        var composer = SceneComposer(background: scene.image, width: 800, height: 600)
        try composer.place(.qr, payload: .text("same json"), pose: CodePose(center: PixelPoint(x: 600, y: 320), width: 180, rotation: 15))
        try ImageEncoder.write(composer.canvas, to: file)
        let cli = try kamera(["detect", "--faces", "--barcodes", file.path])
        #expect(cli.status == 0)
        let server = try ServerProcess(data: dataDirectory())
        defer { server.stop() }
        let query = "barcodes&faces&name=" + file.path.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
        let (status, body) = try await server.request("/v1/detect?" + query, method: "POST", body: try Data(contentsOf: file))
        #expect(status == 200)
        #expect(String(decoding: body, as: UTF8.self) == cli.stdout)
        #expect(cli.stdout.contains("same json") && cli.stdout.contains("\"roll\""))
    }

    @Test("SIGKILL in the middle of a recording: after a restart the recording is listed, playable, with its thumbnail")
    func killedWhileRecording() async throws {
        let data = dataDirectory()
        let server = try ServerProcess(data: data)
        let frames = try (0..<45).map { i -> Data in
            var scene = try FaceScene(background: "fruits.jpg", width: 640, height: 480)
            scene.place(try FaceScene.astronautHead(), faceCenter: PixelPoint(x: 200 + 5 * Double(i), y: 240), faceSide: 150, degrees: 0)
            return try ImageEncoder.encode(scene.image, as: .jpeg(quality: 85))
        }
        let answered = try await WebSocketClient.connect(
            url: "ws://127.0.0.1:\(server.port)/v1/live", configuration: WebSocketClientConfiguration(maxFrameSize: 1 << 22),
            logger: Logger(label: "serve-test")
        ) { inbound, outbound, _ in
            var messages = inbound.messages(maxSize: 1 << 24).makeAsyncIterator()
            try await outbound.write(.text(#"{"record":"start"}"#))
            for (index, frame) in frames.enumerated() {
                var buffer = ByteBuffer()
                buffer.writeInteger(UInt32(index + 1), endianness: .little)
                buffer.writeBytes(frame)
                try await outbound.write(.binary(buffer))
                _ = try await messages.next()
                // Long enough for the movie to have written fragments (one a second).
                try await Task.sleep(for: .milliseconds(40))
            }
            // The server dies mid-recording: no stop, no clean shutdown.
            server.kill()
        }
        _ = answered
        let restarted = try ServerProcess(data: data)
        defer { restarted.stop() }
        let (status, body) = try await restarted.request("/v1/recordings")
        #expect(status == 200)
        let list = try #require((try JSONSerialization.jsonObject(with: body) as? [String: [[String: Any]]])?["recordings"])
        #expect(list.count == 1)
        let entry = try #require(list.first)
        #expect(entry["stopReason"] as? String == "interrupted")
        #expect(entry["complete"] as? Bool == true)
        let frameCount = try #require(entry["frames"] as? Int)
        #expect(frameCount >= 15 && frameCount <= frames.count, "frames kept: \(frameCount)")
        let id = try #require(entry["id"] as? String)
        let (thumbnailStatus, thumbnail) = try await restarted.request("/v1/recordings/\(id)/thumbnail")
        #expect(thumbnailStatus == 200)
        #expect(try ImageDecoder.decode(thumbnail).width == 100)
        let (movieStatus, movie) = try await restarted.request("/v1/recordings/\(id)/movie")
        #expect(movieStatus == 200)
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("kamera-serve-\(UUID()).mp4")
        try movie.write(to: path)
        let reader = try MovieReader(path: path.path)
        var decoded = 0
        while try reader.nextFrame() != nil { decoded += 1 }
        #expect(decoded == frameCount)
    }

    @Test("SIGTERM while a server camera records: the movie is finished (serverStopped), not cut off; bad cameras stop the start")
    func cameraRecordingAtShutdown() async throws {
        // A 2 s test-pattern movie stands in for the camera (played in a loop in real time).
        let movie = FileManager.default.temporaryDirectory.appendingPathComponent("kamera-serve-camera-\(UUID()).mp4")
        let pattern = TestPatternSource(width: 320, height: 240, frameRate: 15)
        let recorder = try MovieRecorder(url: movie, settings: RecordingSettings(width: 320, height: 240, frameRate: 15))
        for i in 0..<30 { try recorder.append(pattern.frame(i).pixelBuffer, at: Double(i) / 15) }
        _ = try recorder.finish()
        let data = dataDirectory()
        let server = try ServerProcess(data: data, arguments: ["--camera", movie.path])
        let (started, _) = try await server.request("/v1/cameras/0/recording", method: "POST")
        #expect(started == 201)
        try await Task.sleep(for: .milliseconds(1500))
        server.stop()
        #expect(server.process.terminationStatus == 0)
        let restarted = try ServerProcess(data: data)
        defer { restarted.stop() }
        let (status, body) = try await restarted.request("/v1/recordings")
        #expect(status == 200)
        let entry = try #require((try JSONSerialization.jsonObject(with: body) as? [String: [[String: Any]]])?["recordings"]?.first)
        #expect(entry["stopReason"] as? String == "serverStopped")
        #expect(entry["source"] as? String == movie.path)
        #expect(entry["width"] as? Int == 320 && entry["height"] as? Int == 240)
        #expect((entry["frames"] as? Int ?? 0) >= 15)

        for camera in ["/nonexistent/video7", "/dev/null"] {
            let cli = try kamera(["serve", "--port", "0", "--data", data.path, "--camera", camera])
            #expect(cli.status != 0)
            #expect(cli.stderr.contains(camera), "\(cli.stderr)")
        }
        // Event clips out of range, of no known event, or without a camera stop the start.
        for (arguments, named) in [
            (["--camera", movie.path, "--clips", "face", "--pre-roll", "100"], "pre-roll"),
            (["--camera", movie.path, "--clips", "face", "--post-roll", "nan"], "post-roll"),
            (["--camera", movie.path, "--clips", "dog"], "--clips"), (["--clips", "face"], "--camera"),
        ] {
            let cli = try kamera(["serve", "--port", "0", "--data", data.path] + arguments)
            #expect(cli.status != 0 && cli.stderr.contains(named), "\(arguments): \(cli.stderr)")
        }
    }

    @Test("Event clips: SIGKILL while a clip is written leaves it listed after a restart, playable, from ≥ its pre-roll before the event")
    func killedWhileWritingAClip() async throws {
        let movie = try EventMovie.write(before: 30, with: 60)
        let data = dataDirectory()
        let server = try ServerProcess(
            data: data, arguments: ["--camera", movie.path, "--clips", "face", "--pre-roll", "1.5", "--post-roll", "30"])
        // Nobody watches: the camera runs for its clips. The face is in view from 2 s on.
        var writing = false
        for _ in 0..<150 where !writing {
            try await Task.sleep(for: .milliseconds(100))
            let (_, body) = try await server.request("/v1/cameras")
            let cameras = try #require((try JSONSerialization.jsonObject(with: body) as? [String: [[String: Any]]])?["cameras"])
            writing = (cameras.first?["clips"] as? [String: Any])?["writing"] as? Bool == true
        }
        #expect(writing, "no clip was started")
        // Fragments (one per key frame, a second each) reach the disk as they are written.
        try await Task.sleep(for: .milliseconds(2500))
        server.kill()
        let restarted = try ServerProcess(data: data)
        defer { restarted.stop() }
        let (_, body) = try await restarted.request("/v1/recordings")
        let entry = try #require((try JSONSerialization.jsonObject(with: body) as? [String: [[String: Any]]])?["recordings"]?.first)
        #expect(entry["event"] as? String == "face" && entry["stopReason"] as? String == "interrupted")
        #expect(entry["complete"] as? Bool == true && entry["source"] as? String == movie.path)
        let offset = try #require(entry["eventOffset"] as? Double), frames = try #require(entry["frames"] as? Int)
        let id = try #require(entry["id"] as? String)
        let (status, clip) = try await restarted.request("/v1/recordings/\(id)/movie")
        #expect(status == 200)
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("kamera-clip-\(UUID()).mp4")
        defer { try? FileManager.default.removeItem(at: path) }
        try clip.write(to: path)
        let (numbers, atOffset) = try EventMovie.frameNumbers(in: path, at: offset)
        let first = try #require(numbers.first)
        let seen = try #require(atOffset)
        // Seen on a frame with the face; the clip starts ≥ 1.5 s before it.
        #expect((30..<90).contains(seen), "from \(first), seen on \(seen), offset \(offset), \(numbers.count) frames")
        #expect(offset >= 1.5 - 0.001 && first < seen, "from \(first), seen on \(seen)")
        #expect(numbers == Array(first..<first + numbers.count) && frames == numbers.count && numbers.count >= 30)
    }
}
