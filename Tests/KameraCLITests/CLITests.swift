import Foundation
import Kamera
import KameraTestMedia
import KameraTestTiers
import Testing

/// Runs the built `kamera` executable as a user would.
struct CLIRun {
    var status: Int32
    var stdoutData: Data
    var stderr: String

    var stdout: String { String(decoding: stdoutData, as: UTF8.self) }

    var json: [String: Any]? { try? JSONSerialization.jsonObject(with: Data(stdout.utf8)) as? [String: Any] }
}

/// `stdin`: bytes piped to the command; `stdoutPath`: a file standard output goes to instead
/// of a pipe (e.g. /dev/full).
/// `workingDirectory`: the folder the command runs in (default: the runner's).
func kamera(
    _ arguments: [String], environment: [String: String] = [:], stdin: Data? = nil, stdoutPath: String? = nil,
    workingDirectory: URL? = nil, program: String = "kamera"
) throws -> CLIRun {
    // The test runner sits next to the products of the same build.
    let directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    var executable = directory.appendingPathComponent(program)
    if !FileManager.default.fileExists(atPath: executable.path) {
        executable = directory.deletingLastPathComponent().appendingPathComponent(program)
    }
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    if let workingDirectory { process.currentDirectoryURL = workingDirectory }
    if !environment.isEmpty {
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    }
    let out = Pipe(), err = Pipe()
    if let stdoutPath {
        guard let file = FileHandle(forWritingAtPath: stdoutPath) else { throw CocoaError(.fileNoSuchFile) }
        process.standardOutput = file
    } else {
        process.standardOutput = out
    }
    process.standardError = err
    let input = Pipe()
    process.standardInput = input
    try process.run()
    // Feed stdin from another thread so a command that writes before reading cannot deadlock;
    // a command that exits without reading it must not kill the test runner with SIGPIPE.
    let writer = input.fileHandleForWriting
    if let stdin {
        signal(SIGPIPE, SIG_IGN)
        Thread {
            try? writer.write(contentsOf: stdin)
            try? writer.close()
        }.start()
    } else {
        try? writer.close()
    }
    if stdoutPath != nil { try? out.fileHandleForWriting.close() }
    let stdout = stdoutPath == nil ? out.fileHandleForReading.readDataToEndOfFile() : Data()
    let stderr = err.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return CLIRun(status: process.terminationStatus, stdoutData: stdout, stderr: String(decoding: stderr, as: UTF8.self))
}

@Suite(.tier(.endToEnd)) struct CLITests {
    let dir: URL = {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("kamera-cli-\(UUID().uuidString)")
        try! FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }()

    /// A scene with a QR code and an EAN-13, written as JPEG.
    func sceneFile() throws -> (path: String, qr: String, ean: String) {
        var composer = SceneComposer(background: try SampleMedia.photo("building.jpg").pixelBuffer, width: 800, height: 600)
        let qr = SamplePayload.make(.qr, index: 2), ean = SamplePayload.make(.ean13, index: 2)
        try composer.place(.qr, payload: qr.input, pose: CodePose(center: PixelPoint(x: 200, y: 200), width: 220, rotation: 15))
        try composer.place(.ean13, payload: ean.input, pose: CodePose(center: PixelPoint(x: 550, y: 420), width: 330))
        let path = dir.appendingPathComponent("scene.jpg").path
        try ImageEncoder.write(composer.render(), to: URL(fileURLWithPath: path), as: .jpeg(quality: 92))
        return (path, qr.expectedText, ean.expectedText)
    }

    /// The README's example output for `command` (the lines after `$ command` up to the next
    /// prompt or the end of the block); a trailing `…` line means "and more".
    func documentedOutput(of command: String) throws -> (lines: [String], isPrefix: Bool) {
        let readme = try String(
            contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent()
                .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("README.md"), encoding: .utf8)
        let lines = readme.components(separatedBy: "\n")
        let start = try #require(lines.firstIndex { $0.hasPrefix("$ " + command) }, "README has no `$ \(command)`")
        var output = Array(lines[(start + 1)...].prefix { !$0.hasPrefix("$ ") && !$0.hasPrefix("```") })
        let isPrefix = output.last == "…"
        if isPrefix { output.removeLast() }
        return (output, isPrefix)
    }

    /// Runs a README example in a folder holding its inputs and compares what it prints.
    func expectREADMEExample(_ command: String, arguments: [String], status: Int32 = 0) throws {
        let documented = try documentedOutput(of: command)
        let run = try kamera(arguments, workingDirectory: dir)
        // Error messages name the full path; the README gives it relative to its working folder.
        var printed = run.stdout.replacingOccurrences(of: dir.path + "/", with: "").components(separatedBy: "\n")
        if printed.last == "" { printed.removeLast() }
        if documented.isPrefix { printed = Array(printed.prefix(documented.lines.count)) }
        #expect(printed == documented.lines, "`\(command)` prints:\n\(printed.joined(separator: "\n"))")
        #expect(run.status == status, "\(run.stderr)")
    }

    @Test("The README's examples are what the commands print: generate, detect (JSON, codes, text and face tables)")
    func readmeExamplesMatchOutput() throws {
        try Data("hi".utf8).write(to: dir.appendingPathComponent("notes.png"))
        try expectREADMEExample(
            #"kamera generate qr "https://example.org/kamera" -o qr.png --module-size 6 --ecc Q"#,
            arguments: ["generate", "qr", "https://example.org/kamera", "-o", "qr.png", "--module-size", "6", "--ecc", "Q"])
        try expectREADMEExample(
            "kamera detect --barcodes qr.png notes.png", arguments: ["detect", "--barcodes", "qr.png", "notes.png"], status: 1)
        // The demo's scenes, as the README's reader makes them with `kamera-demo -o`.
        let demo = try kamera(["-o", dir.appendingPathComponent("demo").path], program: "kamera-demo")
        #expect(demo.status == 0, "\(demo.stderr)")
        for scene in ["scene1.jpg", "scene3.jpg"] {
            try FileManager.default.copyItem(at: dir.appendingPathComponent("demo/\(scene)"), to: dir.appendingPathComponent(scene))
        }
        for photo in ["imageTextR.png", "astronaut.png", "messi5.jpg"] {
            try FileManager.default.copyItem(at: try SampleMedia.url(photo), to: dir.appendingPathComponent(photo))
        }
        try expectREADMEExample(
            "kamera detect --format table scene1.jpg scene3.jpg",
            arguments: ["detect", "--format", "table", "scene1.jpg", "scene3.jpg"])
        try expectREADMEExample(
            "kamera detect --text --recognize --format table imageTextR.png",
            arguments: ["detect", "--text", "--recognize", "--format", "table", "imageTextR.png"])
        try expectREADMEExample(
            "kamera detect --faces --landmarks --format table astronaut.png messi5.jpg",
            arguments: ["detect", "--faces", "--landmarks", "--format", "table", "astronaut.png", "messi5.jpg"])
    }

    @Test func detectPrintsTheDocumentedJSON() throws {
        let scene = try sceneFile()
        let run = try kamera(["detect", "--barcodes", scene.path])
        #expect(run.status == 0, "\(run.stderr)")
        let results = try #require(run.json?["results"] as? [[String: Any]])
        #expect(results.count == 1)
        // Fields come in the documented order.
        let order = [
            "\"input\"", "\"width\"", "\"height\"", "\"barcodes\"", "\"symbology\"", "\"payload\"",
            "\"payloadBase64\"", "\"boundingBox\"", "\"pixelCorners\"",
        ]
        let positions = order.compactMap { run.stdout.range(of: $0)?.lowerBound }
        #expect(positions.count == order.count && positions == positions.sorted())
        let result = results[0]
        #expect(result["input"] as? String == scene.path)
        #expect(result["width"] as? Int == 800 && result["height"] as? Int == 600)
        let barcodes = try #require(result["barcodes"] as? [[String: Any]])
        #expect(Set(barcodes.compactMap { $0["symbology"] as? String }) == ["qr", "ean13"])
        let qr = try #require(barcodes.first { $0["symbology"] as? String == "qr" })
        #expect(qr["payload"] as? String == scene.qr)
        #expect(Data(base64Encoded: qr["payloadBase64"] as? String ?? "") == Data(scene.qr.utf8))
        let box = try #require(qr["boundingBox"] as? [String: Double])
        let corners = try #require(qr["pixelCorners"] as? [[Double]])
        #expect(corners.count == 4)
        // Normalized lower-left box vs top-left pixel corners: the box's top is 1 - (y + height).
        let minY = corners.map { $0[1] }.min()!, maxY = corners.map { $0[1] }.max()!
        #expect(abs((1 - box["y"]! - box["height"]!) * 600 - minY) < 0.5)
        #expect(abs((1 - box["y"]!) * 600 - maxY) < 0.5)
        #expect(box["x"]! > 0 && box["x"]! < 0.5 && box["y"]! + box["height"]! > 0.6)
        // The QR code sits top-left in the scene, so its topLeft corner has small pixel values.
        #expect(corners[0][0] < 300 && corners[0][1] < 300)
    }

    @Test func addOnsAreASupplementalPayload() throws {
        let path = dir.appendingPathComponent("book.png").path
        let generated = try kamera(["generate", "ean13", "9780201379624+51595", "-o", path])
        #expect(generated.status == 0, "\(generated.stderr)")
        let run = try kamera(["detect", path])
        let code = try #require(((run.json?["results"] as? [[String: Any]])?.first?["barcodes"] as? [[String: Any]])?.first)
        #expect(code["payload"] as? String == "9780201379624" && code["supplementalPayload"] as? String == "51595")
        let table = try kamera(["detect", "--format", "table", path])
        #expect(table.stdout.contains("9780201379624 +51595"), "\(table.stdout)")
    }

    @Test func controlCharactersAreEscapedInJSONAndNamedInTheTable() throws {
        let path = dir.appendingPathComponent("label.png").path
        #expect(try kamera(["generate", "datamatrix", "--hex", "5b293e1e30361d3150414201511e04", "-o", path]).status == 0)
        let run = try kamera(["detect", path])
        #expect(run.stdout.contains(#""payload": "[)>\u001e06\u001d1PAB\u0001Q\u001e\u0004""#), "\(run.stdout)")
        let code = try #require(((run.json?["results"] as? [[String: Any]])?.first?["barcodes"] as? [[String: Any]])?.first)
        #expect(
            (code["payload"] as? String).map { Array($0.utf8) } == [
                0x5B, 0x29, 0x3E, 0x1E, 0x30, 0x36, 0x1D, 0x31, 0x50, 0x41, 0x42, 0x01, 0x51, 0x1E, 0x04,
            ])
        let table = try kamera(["detect", "--format", "table", path])
        #expect(table.stdout.contains("[)><RS>06<GS>1PAB<SOH>Q<RS><EOT>"), "\(table.stdout)")
    }

    @Test func badFilesGetErrorEntriesAndOthersStillRun() throws {
        let scene = try sceneFile()
        let text = dir.appendingPathComponent("notes.png").path
        try Data("not an image".utf8).write(to: URL(fileURLWithPath: text))
        let empty = dir.appendingPathComponent("empty.jpg").path
        #expect(FileManager.default.createFile(atPath: empty, contents: Data()))
        let truncated = dir.appendingPathComponent("truncated.jpg").path
        try Data(try Data(contentsOf: URL(fileURLWithPath: scene.path)).prefix(5000)).write(to: URL(fileURLWithPath: truncated))
        let run = try kamera(["detect", text, scene.path, empty, truncated, dir.appendingPathComponent("missing.webp").path])
        #expect(run.status == 1)
        let results = try #require(run.json?["results"] as? [[String: Any]])
        #expect(results.count == 5)
        #expect(
            results.map { $0["input"] as? String } == [text, scene.path, empty, truncated, dir.appendingPathComponent("missing.webp").path])
        #expect(results[1]["error"] == nil && (results[1]["barcodes"] as? [Any])?.count == 2)
        for index in [0, 2, 3, 4] {
            let error = try #require(results[index]["error"] as? [String: String], "\(index)")
            #expect(!(error["message"] ?? "").isEmpty && !(error["hint"] ?? "").isEmpty)
        }
        #expect((results[0]["error"] as? [String: String])?["message"]?.contains("not a supported image") == true)
        #expect((results[3]["error"] as? [String: String])?["message"]?.contains("truncated") == true)
    }

    @Test func pixelLimitTableAndAnnotation() throws {
        let scene = try sceneFile()
        let limited = try kamera(["detect", "--max-pixels", "1000", scene.path])
        #expect(limited.status == 1 && limited.stdout.contains("over the limit"))

        let table = try kamera(["detect", "--format", "table", scene.path])
        #expect(table.status == 0 && table.stdout.contains(scene.qr) && table.stdout.contains("KIND"))

        let annotated = dir.appendingPathComponent("annotated.png").path
        let run = try kamera(["detect", "--annotate", annotated, scene.path])
        #expect(run.status == 0)
        let image = try Image(contentsOf: URL(fileURLWithPath: annotated))
        #expect(image.width == 800 && image.height == 600)

        let folder = dir.appendingPathComponent("many").path + "/"
        let many = try kamera(["detect", "--annotate", folder, scene.path, scene.path])
        #expect(many.status == 0)
        #expect(FileManager.default.fileExists(atPath: folder + "scene.annotated.png"))
        #expect(FileManager.default.fileExists(atPath: folder + "scene_.annotated.png"))
    }

    @Test func generateThenDetectRoundTrips() throws {
        for (symbology, text) in [
            ("qr", "Kamera CLI ✓"), ("datamatrix", "DM 42"), ("ean13", "4006381333931"), ("code128", "ABC-123"), ("pdf417", "stacked"),
        ] {
            let out = dir.appendingPathComponent("\(symbology).png").path
            let generated = try kamera(["generate", symbology, text, "-o", out, "--module-size", "3"])
            #expect(generated.status == 0, "\(generated.stderr)")
            let detected = try kamera(["detect", "--symbologies", symbology, out])
            let barcodes = (detected.json?["results"] as? [[String: Any]])?.first?["barcodes"] as? [[String: Any]]
            #expect(barcodes?.first?["payload"] as? String == text, "\(symbology)")
        }
        let hex = dir.appendingPathComponent("bytes.png").path
        #expect(try kamera(["generate", "aztec", "00ff10fe", "--hex", "-o", hex]).status == 0)
        let detected = try kamera(["detect", hex])
        let barcode = (detected.json?["results"] as? [[String: Any]])?.first?["barcodes"] as? [[String: Any]]
        #expect(Data(base64Encoded: barcode?.first?["payloadBase64"] as? String ?? "") == Data([0x00, 0xFF, 0x10, 0xFE]))
        let ecc = dir.appendingPathComponent("ecc.png").path
        #expect(try kamera(["generate", "qr", "error correction", "--ecc", "H", "-o", ecc]).status == 0)
    }

    @Test func invalidArgumentsFailWithAMessage() throws {
        let bad = try kamera(["generate", "ean13", "letters", "-o", dir.appendingPathComponent("x.png").path])
        #expect(bad.status == 1 && bad.stderr.contains("ean13"))
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("x.png").path))
        #expect(try kamera(["generate", "nope", "x", "-o", dir.appendingPathComponent("y.png").path]).status != 0)
        #expect(try kamera(["generate", "qr", "x", "-o", dir.appendingPathComponent("y.gif").path]).status != 0)
        let unknown = try kamera(["detect", "--symbologies", "qr,bogus", "a.png"])
        #expect(unknown.status != 0 && unknown.stderr.contains("bogus"))
        #expect(try kamera(["detect"]).status != 0)
        #expect(try kamera(["detect", "--effort", "extreme", "a.png"]).status != 0)
    }

    @Test func personMaskReportsAndWritesTheMask() throws {
        let photo = try SampleMedia.url("messi5.jpg").path
        let mask = dir.appendingPathComponent("messi.mask.png").path
        let run = try kamera(["detect", "--person-mask", "accurate", "--mask-out", mask, "--format", "json", "-y", photo])
        #expect(run.status == 0, "\(run.stderr)")
        let report = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any]
        let result = try #require((report?["results"] as? [[String: Any]])?.first)
        let record = try #require(result["personMask"] as? [String: Any])
        // The player: a seventh of the photo, his box across most of it.
        let coverage = try #require(record["coverage"] as? Double)
        #expect(coverage > 0.08 && coverage < 0.3, "coverage \(coverage)")
        #expect(record["width"] as? Int == 548 && record["height"] as? Int == 342 && record["pixelBox"] != nil)
        // Nothing else was asked for, so nothing else ran.
        #expect(result["barcodes"] == nil && result["faces"] == nil)
        let written = try Image(contentsOf: URL(fileURLWithPath: mask))
        #expect(written.width == 548 && written.height == 342)
        // Bodies beside the mask: one footballer with Vision's 19 joints, drawn as a skeleton.
        let annotated = dir.appendingPathComponent("messi.bodies.png").path
        let bodies = try kamera(["detect", "--bodies", "--hands", "--annotate", annotated, "--format", "json", "-y", photo])
        #expect(bodies.status == 0, "\(bodies.stderr)")
        let poses = try #require(
            ((try JSONSerialization.jsonObject(with: Data(bodies.stdout.utf8)) as? [String: Any])?["results"] as? [[String: Any]])?
                .first?["bodies"] as? [[String: Any]])
        #expect(poses.count == 1 && (poses.first?["joints"] as? [Any])?.count == 19)
        let hands = try #require(
            ((try JSONSerialization.jsonObject(with: Data(bodies.stdout.utf8)) as? [String: Any])?["results"] as? [[String: Any]])?
                .first?["hands"] as? [[String: Any]])
        #expect(Set(hands.compactMap { $0["chirality"] as? String }) == ["left", "right"])
        #expect(FileManager.default.fileExists(atPath: annotated))
        // The same footballer in metres: Vision's 17 3-D joints about his hips' middle (y up),
        // a person's height (the model's estimate for standard proportions: 1.44 m for this
        // running, bent player), each joint also in the image.
        let world = try kamera(["detect", "--bodies-3d", "--format", "json", photo])
        #expect(world.status == 0, "\(world.stderr)")
        let poses3D = try #require(
            ((try JSONSerialization.jsonObject(with: Data(world.stdout.utf8)) as? [String: Any])?["results"] as? [[String: Any]])?
                .first?["bodies3D"] as? [[String: Any]])
        let player = try #require(poses3D.first)
        #expect(poses3D.count == 1 && player["heightEstimation"] as? String == "reference")
        let height = try #require(player["bodyHeight"] as? Double)
        #expect(height > 1.2 && height < 2.2, "body height \(height) m")
        let joints = try #require(player["joints"] as? [[String: Any]])
        let byName = Dictionary(uniqueKeysWithValues: joints.compactMap { joint in (joint["name"] as? String).map { ($0, joint) } })
        #expect(byName.count == 17)
        func value(_ joint: String, _ key: String) -> Double { byName[joint]?[key] as? Double ?? .nan }
        #expect(abs(value("root", "x")) < 0.01 && abs(value("root", "y")) < 0.01 && abs(value("root", "z")) < 0.01)
        // Head over shoulders over hips over the lower foot (one leg is raised behind him).
        #expect(value("topHead", "y") > value("centerShoulder", "y") && value("centerShoulder", "y") > 0.3)
        #expect(min(value("leftAnkle", "y"), value("rightAnkle", "y")) < -0.3)
        #expect(joints.allSatisfy { ($0["imageX"] as? Double ?? -1) >= 0 && ($0["imageY"] as? Double ?? -1) >= 0 })
        // In the image his head is above his hips (pixels: y down).
        #expect(value("topHead", "imageY") < value("root", "imageY"))
        // Both ways at once (one run of the models): the same player, each 3-D joint where the
        // 2-D pose has it in the image.
        let both = try kamera(["detect", "--bodies", "--bodies-3d", "--format", "json", photo])
        #expect(both.status == 0, "\(both.stderr)")
        let bothResult = try #require(
            ((try JSONSerialization.jsonObject(with: Data(both.stdout.utf8)) as? [String: Any])?["results"] as? [[String: Any]])?.first)
        let flatJoints = try #require((bothResult["bodies"] as? [[String: Any]])?.first?["joints"] as? [[String: Any]])
        let worldJoints = try #require((bothResult["bodies3D"] as? [[String: Any]])?.first?["joints"] as? [[String: Any]])
        let flatWrist = try #require(flatJoints.first { $0["name"] as? String == "leftWrist" })
        let worldWrist = try #require(worldJoints.first { $0["name"] as? String == "leftWrist" })
        #expect(abs((flatWrist["x"] as? Double ?? .nan) - (worldWrist["imageX"] as? Double ?? .nan)) <= 0.1)
        #expect(abs((flatWrist["y"] as? Double ?? .nan) - (worldWrist["imageY"] as? Double ?? .nan)) <= 0.1)
        #expect((bothResult["bodies3D"] as? [[String: Any]])?.first?["bodyHeight"] as? Double == player["bodyHeight"] as? Double)
        // A stream has no 3-D bodies: said, not ignored.
        let scan = try kamera(["scan", "--bodies-3d", try SampleMedia.url("Megamind.avi").path])
        #expect(scan.status != 0 && scan.stderr.contains("bodies3D is for photos"), "\(scan.stderr)")
        // --mask-out alone is a slip, named as such.
        let alone = try kamera(["detect", "--mask-out", mask, photo])
        #expect(alone.status == 64 && alone.stderr.contains("--person-mask"))
    }

    @Test func demoRunsOnSampleMedia() throws {
        let out = dir.appendingPathComponent("demo").path
        let run = try kamera(["-o", out], program: "kamera-demo")
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("decoded 11 of 11 codes; found 3 faces with landmarks in 3 photos; tracked 1 face ID(s) and 1 code(s)"))
        #expect(run.stdout.contains("recorded 60 frames (maximumDurationReached) and a 100×56 thumbnail"))
        #expect(run.stdout.contains("posed 2 bodies and"))
        // A readable table and the summary, not thousands of lines of JSON (that is --json).
        #expect(run.stdout.hasPrefix("INPUT") && run.stdout.split(separator: "\n").count < 80)
        for file in [
            "scene1.annotated.png", "text.annotated.png", "pattern.mov", "pattern_thumbnail.png",
            "faces_astronaut.annotated.png", "live.annotated.mp4", "people_messi5.annotated.png", "people_basketball1.annotated.png",
        ] {
            #expect(FileManager.default.fileExists(atPath: out + "/" + file), "\(file)")
        }
    }
}

@Suite(.tier(.endToEnd)) struct CLITextTests {
    @Test func detectTextAddsTextToTheDocument() throws {
        let page = try SampleMedia.url("imageTextR.png").path
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("kamera-text-\(UUID().uuidString).png").path
        defer { try? FileManager.default.removeItem(atPath: out) }
        let run = try kamera(["detect", "--text", "--annotate", out, page])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(!run.stderr.contains("LEAK"))
        let result = try #require((run.json?["results"] as? [[String: Any]])?.first)
        #expect(result["barcodes"] == nil)
        let lines = try #require(result["text"] as? [[String: Any]])
        #expect(lines.count >= 12)
        let first = lines[0]
        #expect((first["string"] as? String)?.hasPrefix("technical details") == true)
        #expect(first["boundingBox"] is [String: Double] && first["pixelBox"] is [String: Double])
        let characters = try #require(first["characterBoxes"] as? [[String: Any]])
        #expect(characters.first?["character"] as? String == "t")
        #expect(FileManager.default.fileExists(atPath: out))

        let recognized = try kamera(["detect", "--text", "--recognize", "--barcodes", "--languages", "eng", page])
        let both = try #require((recognized.json?["results"] as? [[String: Any]])?.first)
        #expect((both["barcodes"] as? [Any])?.isEmpty == true)
        #expect(((both["text"] as? [[String: Any]])?.first?["words"] as? [Any])?.isEmpty == false)

        let missing = try kamera(["detect", "--text", "--languages", "xyz", page])
        #expect(missing.status == 1 && missing.stdout.contains("tesseract-ocr-xyz"))
    }
}

@Suite(.tier(.endToEnd)) struct CLIVideoTests {
    @Test func recordThenThumbnail() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("kamera-video-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let movie = directory.appendingPathComponent("clip.mov").path
        let run = try kamera(["record", "--test-pattern", "--size", "320x240", "--duration", "2", "--rotation", "90", "-o", movie])
        #expect(run.status == 0, "\(run.stderr)")
        let summary = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        #expect(summary["path"] as? String == movie && summary["frames"] as? Int == 60)
        #expect(summary["stopReason"] as? String == "maximumDurationReached")
        #expect((summary["bytes"] as? Int ?? 0) > 0 && run.stderr.contains("recording"))
        let thumbnail = directory.appendingPathComponent("thumb.png").path
        let thumb = try kamera(["thumbnail", movie, "-o", thumbnail, "--max-size", "100x0", "--at", "1"])
        #expect(thumb.status == 0, "\(thumb.stderr)")
        // Upright (rotated 90°): 240×320 scaled to 100 wide.
        let image = try Image(contentsOf: URL(fileURLWithPath: thumbnail))
        #expect(image.width == 100 && image.height == 133)

        let defaultRun = try kamera(["record", "--test-pattern", "--size", "160x120", "--duration", "0.5"])
        let defaultPath = (try JSONSerialization.jsonObject(with: Data(defaultRun.stdout.utf8)) as? [String: Any])?["path"] as? String ?? ""
        #expect(defaultPath.hasSuffix("/kamera_movie.mov") && defaultPath.contains("/kamera."))
        try? FileManager.default.removeItem(atPath: URL(fileURLWithPath: defaultPath).deletingLastPathComponent().path)

        let reencoded = directory.appendingPathComponent("megamind.mp4").path
        let fromFile = try kamera(["record", try SampleMedia.url("Megamind.avi").path, "--duration", "1", "-o", reencoded])
        #expect(fromFile.status == 0 && fromFile.stdout.contains("\"frames\":24"), "\(fromFile.stdout)")

        #expect(try kamera(["record", "--test-pattern"]).status != 0)  // never ends without a limit
        let cameras = try kamera(["cameras"])
        let list = try #require(try JSONSerialization.jsonObject(with: Data(cameras.stdout.utf8)) as? [Any])
        #expect(cameras.status == 0 && list.count == CameraDevice.discover().count)
        #expect(try kamera(["record", "--camera", "/dev/video99", "--duration", "1"]).status == 1)
        #expect(try kamera(["thumbnail", directory.appendingPathComponent("missing.mov").path, "-o", thumbnail]).status == 1)
        #expect(try kamera(["thumbnail", movie, "-o", thumbnail, "--max-size", "big"]).status != 0)
    }
}
