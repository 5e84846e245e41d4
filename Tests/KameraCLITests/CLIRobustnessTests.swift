import Foundation
import Kamera
import KameraTestMedia
import KameraTestTiers
import Testing

/// What a new user runs into: full disks and closed pipes, bad numbers, existing outputs,
/// standard input, damaged files. Every case ends in a clear message and the documented
/// exit status (64 for a usage error, 1 for a failed input or write), never a trap.
@Suite(.tier(.endToEnd)) struct CLIRobustnessTests {
    let dir: URL = {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("kamera-robust-\(UUID().uuidString)")
        try! FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }()

    func path(_ name: String) -> String { dir.appendingPathComponent(name).path }

    /// A QR code on a real photo, as a JPEG file.
    func qrScene(_ name: String = "qr.jpg") throws -> String {
        var composer = SceneComposer(background: try SampleMedia.photo("building.jpg").pixelBuffer, width: 640, height: 480)
        try composer.place(.qr, payload: .text("kamera-robust"), pose: CodePose(center: PixelPoint(x: 320, y: 200), width: 200))
        let file = path(name)
        try ImageEncoder.write(composer.render(), to: URL(fileURLWithPath: file), as: .jpeg(quality: 92))
        return file
    }

    @Test func aFullStandardOutputIsAnErrorNotACrashOrASilentCut() throws {
        let scene = try qrScene()
        let megamind = try SampleMedia.url("Megamind.avi").path
        for arguments in [
            ["detect", scene], ["symbologies"], ["models", "--json"], ["scan", megamind, "--max-frames", "3", "--barcodes"],
            ["record", "--test-pattern", "--size", "320x240", "--duration", "0.2", "-o", path("full.mp4")],
        ] {
            let run = try kamera(arguments, stdoutPath: "/dev/full")
            #expect(run.status == 1, "\(arguments): \(run.status) \(run.stderr)")
            #expect(run.stderr.contains("cannot write standard output: No space left on device"), "\(arguments): \(run.stderr)")
        }
        // The event file on a full disk: the same clear error.
        let events = try kamera(["scan", megamind, "--max-frames", "3", "--barcodes", "--events", "/dev/full", "-y"])
        #expect(events.status == 1 && events.stderr.contains("cannot write /dev/full"), "\(events.stderr)")
    }

    @Test func usageErrorsExit64WithTheReason() throws {
        let scene = try qrScene()
        let cases: [([String], String)] = [
            (["record", "--test-pattern", "--duration", "nan", "-o", path("a.mp4")], "maximum duration must be a positive number"),
            (["record", "--test-pattern", "--duration", "0", "-o", path("a.mp4")], "maximum duration must be a positive number"),
            (["record", "--test-pattern", "--duration", "-2", "-o", path("a.mp4")], "maximum duration must be a positive number"),
            (["record", "--test-pattern", "--duration", "1", "--fps", "-30", "-o", path("a.mp4")], "frame rate must be"),
            (
                ["record", "--test-pattern", "--duration", "1", "--rotation", "45", "-o", path("a.mp4")],
                "rotation must be 0, 90, 180 or 270"
            ),
            (
                ["record", "--test-pattern", "--duration", "1", "-o", path("z.avi")],
                "recordings are MPEG-4 (.mp4, .m4v) or QuickTime (.mov)"
            ),
            (["record", "--test-pattern", "--duration", "1", "--size", "0x0"], "--size must be WIDTHxHEIGHT"),
            (["thumbnail", "x.mp4", "-o", path("t.png"), "--max-size", "100000x100000"], "--max-size must be WIDTHxHEIGHT"),
            (["thumbnail", "x.mp4", "-o", path("t.png"), "--at", "-1"], "--at must be a time"),
            (["thumbnail", "x.mp4", "-o", path("t.gif")], "--output must end in .png, .jpg or .webp"),
            (["generate", "qr", "hi", "-o", path("q.png"), "--module-size", "0"], "--module-size must be 1…100"),
            (["generate", "qr", "hi", "-o", path("q.png"), "--module-size", "100000"], "--module-size must be 1…100"),
            (["detect", "--faces", "--min-confidence", "2", scene], "--min-confidence must be between 0 and 1"),
            (["detect", "--faces", "--min-face-size", "-5", scene], "--min-face-size must be a positive number"),
            (["detect", "--max-pixels", "0", scene], "--max-pixels must be positive"),
            (["scan", "x.mp4", "--max-frames", "-1"], "--max-frames must be at least 1"),
            (["scan", "x.mp4", "--annotate", path("x.avi")], "recordings are MPEG-4"),
            (["detect", "--effort", "bogus", scene], "'bogus' is invalid for '--effort"),
            (["detect", "--faces", "--max-faces", "0", scene], "--max-faces must be 1…1000"),
            (["detect", "--faces", "--max-faces", "1e13", scene], "--max-faces"),
            (["detect", "--max-faces", "2", scene], "--max-faces needs --faces"),
            (["detect", "--region-of-interest", "0,0,2,1", scene], "--region-of-interest must be"),
            (["scan", "x.mp4", "--min-confidence", "nan"], "--min-confidence must be between 0 and 1"),
            (["record", "--test-pattern", "--duration", "0.1", "--fragment-interval", "1e8", "-o", path("a.mp4")], "up to 3600"),
            (["serve", "--max-megapixels", "99999999999999"], "--max-megapixels must be 1…10000"),
            (["serve", "--memory-budget", "0"], "--memory-budget must be"),
            (["serve", "--allow-origin", "evil"], "is not an origin"),
            (["frobnicate"], "Unexpected argument"),
        ]
        for (arguments, message) in cases {
            let run = try kamera(arguments)
            #expect(run.status == 64, "\(arguments) exited \(run.status): \(run.stderr)")
            #expect(run.stderr.contains(message), "\(arguments): \(run.stderr)")
            #expect(!run.stderr.contains("Missing value"), "a negative number was taken for an option: \(arguments)")
        }
        #expect(!FileManager.default.fileExists(atPath: path("a.mp4")) && !FileManager.default.fileExists(atPath: path("z.avi")))
    }

    @Test func aRecordingWithoutFramesFailsAndLeavesNoFile() throws {
        let run = try kamera(["record", "--test-pattern", "--duration", "1", "--max-size", "10", "-o", path("tiny.mp4")])
        #expect(run.status == 1)
        #expect(
            run.stderr.contains("nothing was recorded") && run.stderr.contains("larger than the size limit of 10 bytes"), "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: path("tiny.mp4")))
        #expect(run.stdout.isEmpty)
    }

    @Test func existingOutputsNeedMinusY() throws {
        let movie = path("take.mp4")
        let first = try kamera(["record", "--test-pattern", "--size", "320x240", "--duration", "0.5", "-o", movie])
        #expect(first.status == 0, "\(first.stderr)")
        let original = try Data(contentsOf: URL(fileURLWithPath: movie))
        // Without a terminal to ask on, an existing file is refused and left as it was.
        for flags in [[String](), ["-n"]] {
            let again = try kamera(["record", "--test-pattern", "--size", "320x240", "--duration", "1"] + flags + ["-o", movie])
            #expect(again.status == 1 && again.stderr.contains("already exists") && again.stderr.contains("-y"), "\(again.stderr)")
            #expect(try Data(contentsOf: URL(fileURLWithPath: movie)) == original)
        }
        let forced = try kamera(["record", "--test-pattern", "--size", "320x240", "--duration", "1", "-y", "-o", movie])
        #expect(forced.status == 0)
        #expect(try Data(contentsOf: URL(fileURLWithPath: movie)).count > original.count)
        // The same rule for images.
        let image = path("code.png")
        #expect(try kamera(["generate", "qr", "one", "-o", image]).status == 0)
        #expect(try kamera(["generate", "qr", "two", "-o", image]).status == 1)
        #expect(try kamera(["generate", "qr", "two", "-o", image, "-y"]).status == 0)
        #expect(try kamera(["thumbnail", movie, "-o", image]).status == 1)
        #expect(try kamera(["detect", try qrScene(), "--annotate", image]).status == 1)
        #expect(try kamera(["generate", "qr", "x", "-o", image, "-y", "-n"]).status == 64)
    }

    @Test func standardInputTakesAnImageOrAListOfPaths() async throws {
        // generate -o - writes PNG to stdout; detect - reads it back.
        let generated = try kamera(["generate", "qr", "from stdin", "-o", "-"])
        #expect(generated.status == 0 && generated.stdoutData.starts(with: [0x89, 0x50, 0x4E, 0x47]))
        let code = try await DetectBarcodesRequest().perform(on: try Image(data: generated.stdoutData))
        #expect(code.first?.payloadString == "from stdin")
        let read = try kamera(["detect", "-"], stdin: try Data(contentsOf: URL(fileURLWithPath: try qrScene())))
        let results = try #require(read.json?["results"] as? [[String: Any]])
        #expect(results.first?["input"] as? String == "-")
        #expect((results.first?["barcodes"] as? [[String: Any]])?.first?["payload"] as? String == "kamera-robust")
        // A list of paths, one per line (what find or ls print), including a bad one.
        let a = try qrScene("a.jpg"), b = try qrScene("b.jpg")
        let listed = try kamera(["detect", "-"], stdin: Data("\(a)\n\(b)\n\n\(path("missing.jpg"))\n".utf8))
        #expect(listed.status == 1)
        let entries = try #require(listed.json?["results"] as? [[String: Any]])
        #expect(entries.map { $0["input"] as? String } == [a, b, path("missing.jpg")])
        #expect(entries[0]["barcodes"] != nil && entries[1]["barcodes"] != nil && entries[2]["error"] != nil)
        // A thumbnail to stdout is PNG.
        let movie = path("clip.mp4")
        #expect(try kamera(["record", "--test-pattern", "--size", "320x240", "--duration", "0.5", "-o", movie]).status == 0)
        let thumbnail = try kamera(["thumbnail", movie, "-o", "-", "--max-size", "100x0"])
        #expect(thumbnail.status == 0)
        let image = try Image(data: thumbnail.stdoutData)
        #expect(image.width == 100 && image.height == 75)
    }

    @Test func everyVideoCommandReadsStandardInput() throws {
        // A plain (not fragmented) MP4 has its index at the end: the commands that seek copy
        // standard input to a file first; those that stream read it as it comes.
        let movie = path("plain.mp4")
        let made = try kamera(["record", "--test-pattern", "--size", "320x240", "--duration", "1", "--fragment-interval", "0", "-o", movie])
        #expect(made.status == 0, "\(made.stderr)")
        let bytes = try Data(contentsOf: URL(fileURLWithPath: movie))
        let scan = try kamera(["scan", "-", "--barcodes"], stdin: bytes)
        #expect(scan.status == 0, "\(scan.stderr)")
        #expect(scan.stdout.split(separator: "\n").count == 31, "30 frames and the end line: \(scan.stdout.prefix(200))")
        let thumbnail = try kamera(["thumbnail", "-", "-o", "-", "--at", "0.5"], stdin: bytes)
        #expect(thumbnail.status == 0, "\(thumbnail.stderr)")
        #expect(try Image(data: thumbnail.stdoutData).width == 320)
        let track = try kamera(["track", "-", "--box", "100,80,60,60"], stdin: bytes)
        #expect(track.status == 0 && track.stdout.split(separator: "\n").count >= 30, "\(track.stderr)")
        let copy = path("copy.mp4")
        let record = try kamera(["record", "-", "-o", copy], stdin: bytes)
        #expect(record.status == 0, "\(record.stderr)")
        #expect(FileManager.default.fileExists(atPath: copy))
        // Nothing on standard input is a clear error, not a hang or a crash.
        let empty = try kamera(["thumbnail", "-", "-o", path("t.png")], stdin: Data())
        #expect(empty.status == 1 && empty.stderr.contains("standard input is empty"), "\(empty.stderr)")
    }

    @Test func maxCodesLimitsTheCodesOnEverySurface() throws {
        // Three codes in one photo; --max-codes 1 reports one of them, the default all.
        var composer = SceneComposer(background: try SampleMedia.photo("building.jpg").pixelBuffer, width: 900, height: 400)
        for (index, payload) in ["one", "two", "three"].enumerated() {
            try composer.place(
                .qr, payload: .text(payload), pose: CodePose(center: PixelPoint(x: 150 + Double(index) * 300, y: 200), width: 180))
        }
        let file = path("three.jpg")
        try ImageEncoder.write(composer.render(), to: URL(fileURLWithPath: file), as: .jpeg(quality: 92))
        func codes(_ extra: [String]) throws -> Int {
            let run = try kamera(["detect"] + extra + [file])
            #expect(run.status == 0, "\(run.stderr)")
            return ((run.json?["results"] as? [[String: Any]])?.first?["barcodes"] as? [Any])?.count ?? -1
        }
        #expect(try codes([]) == 3)
        #expect(try codes(["--max-codes", "1"]) == 1)
        #expect(try codes(["--max-codes", "2"]) == 2)
        let refused = try kamera(["detect", "--max-codes", "5000", file])
        #expect(refused.status == 64 && refused.stderr.contains("--max-codes must be 0 (all) to 1000"), "\(refused.stderr)")
    }

    @Test func minimumConfidenceFiltersFaces() throws {
        let astronaut = try SampleMedia.url("astronaut.png").path
        func faces(_ extra: [String]) throws -> [[String: Any]] {
            let run = try kamera(["detect", "--faces"] + extra + [astronaut])
            #expect(run.status == 0, "\(run.stderr)")
            return try #require((run.json?["results"] as? [[String: Any]])?.first?["faces"] as? [[String: Any]])
        }
        let found = try faces([])
        #expect(found.count == 1)
        let confidence = try #require(found.first?["confidence"] as? Double)
        #expect(try faces(["--min-confidence", String(confidence - 0.01)]).count == 1)
        #expect(try faces(["--min-confidence", String(min(1, confidence + 0.01))]).isEmpty)
    }

    @Test func thumbnailsNeverEnlarge() throws {
        let movie = path("small.mp4")
        #expect(try kamera(["record", "--test-pattern", "--size", "320x240", "--duration", "0.5", "-o", movie]).status == 0)
        let run = try kamera(["thumbnail", movie, "-o", path("big.png"), "--max-size", "16000x16000"])
        #expect(run.status == 0, "\(run.stderr)")
        let image = try Image(contentsOf: dir.appendingPathComponent("big.png"))
        #expect(image.width == 320 && image.height == 240)
    }

    @Test func aSlightlyDamagedJPEGIsAnalysedWithAWarning() throws {
        let full = try Data(contentsOf: URL(fileURLWithPath: try qrScene()))
        // The last 8 % cut off (an interrupted upload): FFmpeg decodes it, and so does Kamera.
        let cut = path("cut.jpg")
        try full.prefix(full.count * 92 / 100).write(to: URL(fileURLWithPath: cut))
        let ffmpeg = Process()
        ffmpeg.executableURL = URL(fileURLWithPath: "/usr/bin/ffmpeg")
        ffmpeg.arguments = ["-v", "quiet", "-y", "-i", cut, path("ffmpeg.png")]
        try ffmpeg.run()
        ffmpeg.waitUntilExit()
        #expect(ffmpeg.terminationStatus == 0)
        let run = try kamera(["detect", cut])
        #expect(run.status == 0, "\(run.stderr)")
        let result = try #require((run.json?["results"] as? [[String: Any]])?.first)
        #expect((result["warning"] as? String)?.contains("rows missing") == true, "\(result)")
        #expect((result["barcodes"] as? [[String: Any]])?.first?["payload"] as? String == "kamera-robust")
        // --strict keeps the old rule; a file cut near its start is still an error.
        #expect(try kamera(["detect", "--strict", cut]).status == 1)
        let stub = path("stub.jpg")
        try full.prefix(full.count / 5).write(to: URL(fileURLWithPath: stub))
        let stubRun = try kamera(["detect", stub])
        #expect(stubRun.status == 1)
        #expect(stubRun.stdout.contains("rows are present"), "\(stubRun.stdout)")
    }

    @Test func scanJSONIsRoundedAndInDegrees() throws {
        let run = try kamera(["scan", try SampleMedia.url("Megamind.avi").path, "--faces", "--max-frames", "12"])
        #expect(run.status == 0, "\(run.stderr)")
        let lines = run.stdout.split(separator: "\n")
        #expect(lines.count == 13)
        // No float noise: every number has at most 4 decimals.
        let longFraction = try Regex(#"\d\.\d{5,}"#)
        #expect(!run.stdout.contains(longFraction))
        let faces = lines.compactMap { line in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["faces"] as? [[String: Any]]
        }.flatMap { $0 }
        #expect(faces.count >= 10)
        for face in faces {
            #expect(face["rollAngle"] == nil && face["yawAngle"] == nil)
            let yaw = try #require(face["yaw"] as? Double)
            #expect(abs(yaw) <= 90)
        }
        // Degrees, not radians: Megamind turns his head well past 3°.
        #expect(faces.contains { abs($0["yaw"] as? Double ?? 0) > 5 })
    }
}
