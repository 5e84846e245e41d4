import Foundation
import HTTPTypes
import HummingbirdTesting
import HummingbirdWSTesting
import HummingbirdWebSocket
import Kamera
import KameraTestMedia
import KameraTestTiers
import NIOCore
import Testing
import WSClient

@testable import KameraServer

/// Server cameras (`--camera`) played from a movie of a face and a code moving over a real
/// photo: the live view, recording every frame at the camera's size and rate (over HTTP and
/// from the page), the camera going away, shutdown, and cameras that cannot be.
// One at a time: each test runs a camera analysing frames on the machine's cores.
@Suite(.tier(.endToEnd), .serialized) struct ServerCameraTests {
    func server(
        camera: URL, data: URL = FileManager.default.temporaryDirectory.appendingPathComponent("kamera-camera-\(UUID())"),
        clips: EventClipPolicy? = nil
    ) throws -> KameraServer {
        var configuration = ServerConfiguration(port: 0, dataDirectory: data, cameras: [camera.path])
        configuration.cameraClips = clips
        return try KameraServer(configuration: configuration)
    }

    static func json(_ buffer: ByteBuffer) throws -> [String: Any] {
        try #require(JSONSerialization.jsonObject(with: Data(buffer: buffer)) as? [String: Any])
    }

    static func text(_ message: WebSocketMessage?) throws -> [String: Any]? {
        guard case .text(let text) = message else { return nil }
        return try #require(JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    @Test("HTTP: listed, records every frame at full size while nobody watches, stops with the finished entry, closes when idle")
    func recordOverHTTP() async throws {
        let movie = try ServerTestMedia.cameraMovie()
        let server = try server(camera: movie)
        _ = try await server.makeApplication().test(.router) { client in
            let listed = try await client.execute(uri: "/v1/cameras", method: .get) {
                try #require(Self.json($0.body)["cameras"] as? [[String: Any]])
            }
            #expect(listed.count == 1)
            #expect(listed.first?["path"] as? String == movie.path)
            #expect(listed.first?["capturing"] as? Bool == false)
            #expect(listed.first?["live"] as? String == "/v1/cameras/0/live")
            try await client.execute(uri: "/v1/cameras/0/recording?maxSeconds=abc", method: .post) { #expect($0.status == .badRequest) }
            try await client.execute(uri: "/v1/cameras/0/recording", method: .delete) { response in
                #expect(response.status == .conflict)
                let error = try Self.json(response.body)["error"] as? [String: Any]
                #expect(error?["code"] as? String == "notRecording")
            }
            let started = try await client.execute(uri: "/v1/cameras/0/recording?maxSeconds=60", method: .post) { response in
                #expect(response.status == .created)
                return try #require(Self.json(response.body)["recording"] as? [String: Any])
            }
            #expect(started["complete"] as? Bool == false)
            #expect(started["source"] as? String == movie.path)
            try await client.execute(uri: "/v1/cameras/0/recording", method: .post) { #expect($0.status == .conflict) }
            try await Task.sleep(for: .milliseconds(800))
            let during = try await client.execute(uri: "/v1/cameras", method: .get) {
                try #require(Self.json($0.body)["cameras"] as? [[String: Any]])
            }
            #expect(during.first?["capturing"] as? Bool == true)
            #expect(during.first?["width"] as? Int == 640 && during.first?["height"] as? Int == 480)
            #expect((during.first?["recording"] as? [String: Any])?["id"] as? String == started["id"] as? String)
            // Past the movie's 2 s end: the file camera loops.
            try await Task.sleep(for: .milliseconds(2200))
            let finished = try await client.execute(uri: "/v1/cameras/0/recording", method: .delete) { response in
                #expect(response.status == .ok)
                return try #require(Self.json(response.body)["recording"] as? [String: Any])
            }
            #expect(finished["complete"] as? Bool == true)
            #expect(finished["stopReason"] as? String == "finished")
            #expect(finished["width"] as? Int == 640 && finished["height"] as? Int == 480)
            let duration = try #require(finished["duration"] as? Double), frames = try #require(finished["frames"] as? Int)
            #expect(duration >= 2.8)
            // Every frame of a 15 fps camera, not just the analysed ones (nobody watched).
            #expect(Double(frames) >= duration * 15 * 0.9, "\(frames) frames in \(duration) s")
            let id = try #require(finished["id"] as? String)
            let reader = try MovieReader(path: server.services.library.recordingsDirectory.appendingPathComponent("\(id).mp4").path)
            var decoded = 0
            while try reader.nextFrame() != nil { decoded += 1 }
            #expect(decoded == frames)
            try await client.execute(uri: "/v1/recordings/\(id)/thumbnail", method: .get) { #expect($0.status == .ok) }
            // Nobody watches and nothing records: the camera closes.
            var capturing = true
            for _ in 0..<100 where capturing {
                try await Task.sleep(for: .milliseconds(20))
                capturing = server.cameras[0].listing.capturing
            }
            #expect(!capturing)
        }
    }

    @Test("Event clips: a face coming into view saves a clip from ≥ 2 s before the frame it was seen on to 1 s after it left")
    func eventClip() async throws {
        let movie = try EventMovie.write(before: 60, with: 30)
        let server = try server(camera: movie, clips: EventClipPolicy(events: [.face], preRoll: 2, postRoll: 1))
        _ = try await server.makeApplication().test(.router) { client in
            server.startEventClips()
            let listed = try await client.execute(uri: "/v1/cameras", method: .get) {
                try #require(Self.json($0.body)["cameras"] as? [[String: Any]])
            }
            let clips = try #require(listed.first?["clips"] as? [String: Any])
            #expect(clips["events"] as? [String] == ["face"] && clips["preRoll"] as? Double == 2)
            // Nobody watches: the camera runs for its clips. The face is in view from 4 s to 6 s.
            var clip: [String: Any]?
            for _ in 0..<120 where clip == nil {
                try await Task.sleep(for: .milliseconds(100))
                clip = try await client.execute(uri: "/v1/recordings", method: .get) {
                    try #require(Self.json($0.body)["recordings"] as? [[String: Any]])
                }.first { $0["complete"] as? Bool == true }
            }
            let entry = try #require(clip, "no clip within 12 s")
            #expect(entry["event"] as? String == "face" && entry["stopReason"] as? String == "eventEnded")
            #expect(entry["source"] as? String == movie.path)
            let offset = try #require(entry["eventOffset"] as? Double)
            let id = try #require(entry["id"] as? String)
            let (numbers, atOffset) = try EventMovie.frameNumbers(
                in: server.services.library.recordingsDirectory.appendingPathComponent("\(id).mp4"), at: offset)
            let first = try #require(numbers.first)
            // The clip's frame at the event's offset is a face frame…
            let seen = try #require(atOffset)
            #expect((60..<90).contains(seen), "event seen on frame \(seen)")
            // …and the clip starts at least 2 s before it, with every frame since.
            #expect(offset >= 2 - 0.001 && first < seen)
            let inView = Array(numbers.prefix(90 - first)), after = Array(numbers.dropFirst(90 - first))
            #expect(inView == Array(first..<90))
            // The face left after frame 89 and the movie loops back to frame 0: up to 1 s more
            // (after the last frame the analysis saw it on), then the clip ends.
            #expect(after == Array(0..<after.count) && (5...16).contains(after.count), "\(after.count) frames after")
            #expect(entry["frames"] as? Int == numbers.count)
            try await client.execute(uri: "/v1/recordings/\(id)/thumbnail", method: .get) { #expect($0.status == .ok) }
        }
        await server.cameras[0].shutDown()
    }

    @Test("Photos: the camera's next frame at full size as a JPEG with EXIF time, saved, listed, served and deleted")
    func photo() async throws {
        let movie = try ServerTestMedia.cameraMovie()
        let server = try server(camera: movie)
        _ = try await server.makeApplication().test(.router) { client in
            // Nobody watches: the camera opens for the photo.
            let still = try await client.execute(uri: "/v1/cameras/0/photo", method: .post) { response in
                #expect(response.status == .created)
                return try #require(Self.json(response.body)["still"] as? [String: Any])
            }
            #expect(still["width"] as? Int == 640 && still["height"] as? Int == 480 && still["source"] as? String == movie.path)
            #expect(still["facesCovered"] as? Bool == false)
            let id = try #require(still["id"] as? String)
            let image = try await client.execute(uri: "/v1/stills/\(id)/image", method: .get) { response in
                #expect(response.headers[.contentType] == "image/jpeg")
                return Data(buffer: response.body)
            }
            #expect(Int64(image.count) == still["bytes"] as? Int64 ?? Int64(still["bytes"] as? Int ?? 0))
            let decoded = try ImageDecoder.decode(image).pixelBuffer
            #expect(decoded.width == 640 && decoded.height == 480)
            // The face of the camera's movie is in the photo; the EXIF block says when it was taken.
            #expect(try await DetectFaceRectanglesRequest().perform(on: decoded).count == 1)
            let day = DateFormatter()
            (day.dateFormat, day.timeZone) = ("yyyy:MM:dd", .current)
            #expect(image.range(of: Data("Exif\0\0".utf8)) != nil && image.range(of: Data(day.string(from: Date()).utf8)) != nil)
            try await client.execute(uri: "/v1/stills/\(id)/image?download", method: .get) { response in
                #expect(response.headers[.contentDisposition]?.hasPrefix("attachment; filename=\"kamera-") == true)
            }
            let thumbnail = try await client.execute(uri: "/v1/stills/\(id)/thumbnail", method: .get) { Data(buffer: $0.body) }
            #expect(try ImageDecoder.decode(thumbnail).width == 320)
            let listed = try await client.execute(uri: "/v1/stills", method: .get) { try Self.json($0.body) }
            #expect((listed["stills"] as? [[String: Any]])?.map { $0["id"] as? String } == [id])
            #expect(listed["next"] is NSNull)
            try await client.execute(uri: "/v1/cameras/3/photo", method: .post) { #expect($0.status == .notFound) }
            try await client.execute(uri: "/v1/stills/\(id)", method: .delete) { #expect($0.status == .noContent) }
            try await client.execute(uri: "/v1/stills/\(id)/image", method: .get) { #expect($0.status == .notFound) }
            try await client.execute(uri: "/v1/stills/\(id)", method: .delete) { #expect($0.status == .notFound) }
            let folder = server.services.library.stillsDirectory.path
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder).isEmpty, "files left after the delete")
        }
    }

    @Test("Live view: JPEG frames with results, stable face IDs, the code while in view; a recording from the page has every frame")
    func liveView() async throws {
        let server = try server(camera: try ServerTestMedia.cameraMovie())
        _ = try await server.makeApplication().test(.live) { client in
            try await client.ws("/v1/cameras/0/live", configuration: WebSocketClientConfiguration(maxFrameSize: 1 << 22)) {
                inbound, outbound, _ in
                var messages = inbound.messages(maxSize: 1 << 24).makeAsyncIterator()
                try await outbound.write(.text(#"{"faces":true,"landmarks":false,"barcodes":true,"text":false}"#))
                var results: [[String: Any]] = [], pictures = 0, pendingPicture: UInt32?
                var recording: [String: Any]?, askedToStart = false, askedToStop = false
                let began = ContinuousClock.now
                while recording == nil {
                    let message = try await messages.next()
                    if case .binary(let buffer) = message {
                        pendingPicture = buffer.getInteger(at: buffer.readerIndex, endianness: .little, as: UInt32.self)
                        if pictures == 0 {
                            let image = try ImageDecoder.decode(Data(buffer.readableBytesView.dropFirst(4)))
                            #expect(image.width == 640 && image.height == 480)
                        }
                        pictures += 1
                        continue
                    }
                    let result = try #require(try Self.text(message))
                    if let ended = result["recording"] as? [String: Any] {
                        recording = ended
                        break
                    }
                    #expect(result["error"] == nil, "\(result)")
                    // Each result follows its picture.
                    #expect(result["id"] as? Int == pendingPicture.map(Int.init))
                    results.append(result)
                    let elapsed = (ContinuousClock.now - began) / .seconds(1)
                    if elapsed > 1, results.count > 3, !askedToStart, (results.last?["recording"] as? Double) == nil {
                        try await outbound.write(.text(#"{"record":"start","maxSeconds":30}"#))
                        askedToStart = true
                    } else if askedToStart, !askedToStop, (results.last?["recording"] as? Double ?? 0) >= 1.5 {
                        // Once: results already on their way still say "recording", and a second
                        // stop would rightly be answered "not recording" (seen under a loaded machine).
                        try await outbound.write(.text(#"{"record":"stop"}"#))
                        askedToStop = true
                    }
                    if elapsed > 20 { break }
                }
                let ended = try #require(recording)
                #expect(ended["stopReason"] as? String == "finished")
                let duration = try #require(ended["duration"] as? Double), frames = try #require(ended["frames"] as? Int)
                #expect(Double(frames) >= duration * 15 * 0.9, "\(frames) frames in \(duration) s")
                #expect(pictures == results.count)
                // Faces: one face, one ID between sightings closer than the scanner's lost time.
                var sightings: [(t: Double, id: Int)] = []
                for result in results {
                    if let t = result["t"] as? Double, let id = (result["faces"] as? [[String: Any]])?.first?["faceID"] as? Int {
                        sightings.append((t, id))
                    }
                }
                #expect(Double(sightings.count) >= Double(results.count) * 0.7)
                for (previous, next) in zip(sightings, sightings.dropFirst()) where next.t - previous.t < 0.35 {
                    #expect(next.id == previous.id)
                }
                // The code is in the first half of each 2 s loop only.
                let withCode = results.filter {
                    ($0["barcodes"] as? [[String: Any]])?.contains { $0["payload"] as? String == ServerTestMedia.qrPayload } == true
                }
                #expect(!withCode.isEmpty && withCode.count < results.count)
                try await outbound.close(.normalClosure, reason: nil)
            }
        }
    }

    @Test("Privacy: a camera started with it shows and records no face, though a page asks for nothing to be covered")
    func privacy() async throws {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("kamera-camera-\(UUID())")
        var configuration = ServerConfiguration(port: 0, dataDirectory: data, cameras: [try ServerTestMedia.cameraMovie().path])
        configuration.cameraPrivacy = .fill
        let server = try KameraServer(configuration: configuration)
        _ = try await server.makeApplication().test(.live) { client in
            try await client.ws("/v1/cameras/0/live", configuration: WebSocketClientConfiguration(maxFrameSize: 1 << 22)) {
                inbound, outbound, _ in
                var messages = inbound.messages(maxSize: 1 << 24).makeAsyncIterator()
                try await outbound.write(.text(#"{"faces":true,"barcodes":false}"#))
                var pictures: [PixelBuffer] = [], reported = 0
                while pictures.count < 6 {
                    let message = try await messages.next()
                    if case .binary(let buffer) = message {
                        pictures.append(try ImageDecoder.decode(Data(buffer.readableBytesView.dropFirst(4))).pixelBuffer)
                    } else if let result = try Self.text(message), (result["faces"] as? [Any])?.isEmpty == false {
                        reported += 1
                    }
                }
                try await outbound.close(.normalClosure, reason: nil)
                #expect(reported >= 3, "the faces are still reported")
                for (index, picture) in pictures.enumerated() {
                    #expect(try await DetectFaceRectanglesRequest().perform(on: picture).isEmpty, "picture \(index): a face is shown")
                }
            }
            // A recording made while nobody watches holds covered frames only.
            try await client.execute(uri: "/v1/cameras/0/recording?maxSeconds=60", method: .post) { #expect($0.status == .created) }
            try await Task.sleep(for: .milliseconds(1500))
            let finished = try await client.execute(uri: "/v1/cameras/0/recording", method: .delete) { response in
                try #require(Self.json(response.body)["recording"] as? [String: Any])
            }
            let id = try #require(finished["id"] as? String)
            let reader = try MovieReader(path: server.services.library.recordingsDirectory.appendingPathComponent("\(id).mp4").path)
            var frames = 0
            while let frame = try reader.nextFrame() {
                #expect(
                    try await DetectFaceRectanglesRequest().perform(on: frame.pixelBuffer).isEmpty, "recorded frame \(frames) shows a face")
                frames += 1
            }
            #expect(frames >= 5)
            // A photo is covered too.
            let still = try await client.execute(uri: "/v1/cameras/0/photo", method: .post) { response in
                #expect(response.status == .created)
                return try #require(Self.json(response.body)["still"] as? [String: Any])
            }
            #expect(still["facesCovered"] as? Bool == true)
            let image = try await client.execute(uri: try #require(still["image"] as? String), method: .get) { Data(buffer: $0.body) }
            #expect(try await DetectFaceRectanglesRequest().perform(on: try ImageDecoder.decode(image).pixelBuffer).isEmpty)
        }
    }

    @Test("The camera goes away mid-recording: the recording is kept (cameraLost), watchers get an error and are let go")
    func cameraLost() async throws {
        let movie = try ServerTestMedia.cameraMovie(frames: 15)
        let server = try server(camera: movie)
        _ = try await server.makeApplication().test(.live) { client in
            try await client.ws("/v1/cameras/0/live", configuration: WebSocketClientConfiguration(maxFrameSize: 1 << 22)) {
                inbound, outbound, _ in
                var messages = inbound.messages(maxSize: 1 << 24).makeAsyncIterator()
                try await outbound.write(.text(#"{"record":"start"}"#))
                // The first frames, then the file disappears: the loop cannot reopen it.
                _ = try await messages.next()
                try FileManager.default.removeItem(at: movie)
                var error: [String: Any]?, recording: [String: Any]?
                while let message = try await messages.next() {
                    guard let result = try Self.text(message) else { continue }
                    if let e = result["error"] as? [String: Any] { error = e }
                    if let r = result["recording"] as? [String: Any] { recording = r }
                }
                #expect(error?["code"] as? String == "cameraUnavailable")
                // The recording notice may come before or after the error; the library has it either way.
                _ = recording
            }
            var entries: [[String: Any]] = []
            for _ in 0..<100 {
                entries = try await client.execute(uri: "/v1/recordings", method: .get) {
                    try #require(Self.json($0.body)["recordings"] as? [[String: Any]])
                }
                if entries.first?["complete"] as? Bool == true { break }
                try await Task.sleep(for: .milliseconds(20))
            }
            #expect(entries.count == 1)
            #expect(entries.first?["stopReason"] as? String == "cameraLost")
            #expect((entries.first?["frames"] as? Int ?? 0) >= 10)
            #expect(entries.first?["thumbnail"] as? String != nil)
        }
    }

    @Test("Stopping the server finishes a camera recording in progress (serverStopped)")
    func shutdown() async throws {
        let server = try server(camera: try ServerTestMedia.cameraMovie(frames: 15))
        let entry = try await server.cameras[0].startRecording(limits: RecordingLimits())
        try await Task.sleep(for: .milliseconds(700))
        await server.cameras[0].shutDown()
        let finished = try #require(try await server.services.library.recording(id: entry.id))
        #expect(finished.complete)
        #expect(finished.stopReason == .serverStopped)
        #expect(finished.frames >= 5)
        #expect(!server.cameras[0].listing.capturing)
    }

    @Test("Cameras that cannot be: missing, not video, not a capture device; unknown camera numbers are 404")
    func badCameras() async throws {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("kamera-camera-\(UUID())")
        let text = FileManager.default.temporaryDirectory.appendingPathComponent("kamera-camera-\(UUID()).txt")
        try Data("not a video".utf8).write(to: text)
        for (path, code) in [
            ("/nonexistent/video0", KameraError.Code.unreadableFile), (text.path, .corruptMedia), ("/dev/null", .unsupportedFormat),
        ] {
            #expect(throws: KameraError.self, "\(path)") {
                try KameraServer(configuration: ServerConfiguration(port: 0, dataDirectory: data, cameras: [path]))
            }
            do {
                _ = try KameraServer(configuration: ServerConfiguration(port: 0, dataDirectory: data, cameras: [path]))
            } catch let error as KameraError {
                #expect(error.code == code, "\(path): \(error)")
            }
        }
        let server = try KameraServer(configuration: ServerConfiguration(port: 0, dataDirectory: data))
        _ = try await server.makeApplication().test(.router) { client in
            try await client.execute(uri: "/v1/cameras", method: .get) { response in
                let cameras = try Self.json(response.body)["cameras"] as? [Any]
                #expect(cameras?.isEmpty == true)
            }
            for (uri, method) in [
                ("/v1/cameras/0/live", HTTPRequest.Method.get), ("/v1/cameras/0/recording", .post), ("/v1/cameras/x/recording", .delete),
                ("/v1/cameras/0/controls", .get), ("/v1/cameras/0/controls", .put),
            ] {
                try await client.execute(uri: uri, method: method) { response in
                    #expect(response.status == .notFound, "\(method) \(uri)")
                    let error = try Self.json(response.body)["error"] as? [String: Any]
                    #expect(error?["hint"] as? String != nil)
                }
            }
        }
    }

    @Test("Controls: a video file standing in for a camera has none (409 noCameraControls, body never applied)")
    func controlsOfAFileCamera() async throws {
        let server = try server(camera: try ServerTestMedia.cameraMovie())
        _ = try await server.makeApplication().test(.router) { client in
            #expect(server.cameras[0].captureDevice == nil)
            for method in [HTTPRequest.Method.get, .put] {
                try await client.execute(
                    uri: "/v1/cameras/0/controls", method: method,
                    body: method == .put ? ByteBuffer(string: #"{"focusMode":"continuous"}"#) : nil
                ) { response in
                    #expect(response.status == .conflict, "\(method)")
                    let error = try #require(try Self.json(response.body)["error"] as? [String: Any])
                    #expect(error["code"] as? String == "noCameraControls" && (error["message"] as? String)?.contains("camera 0") == true)
                }
            }
        }
    }
}
