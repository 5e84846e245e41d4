import Foundation
import Kamera
import KameraTestMedia
import KameraTestTiers
import Testing

/// `kamera detect` over many files: directories, JSON Lines, jobs, shards, resume.
@Suite(.tier(.endToEnd)) struct BatchCLITests {
    let dir: URL = {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("kamera-batch-\(UUID().uuidString)")
        try! FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }()

    /// A folder tree of small real-photo scenes, each with its own QR payload, plus files a
    /// batch must skip (not images, hidden), follow (a link) or report (a text file named .jpg).
    /// Returns the expected payload for every image path, in the order a run reports them.
    func corpus(count: Int = 7) throws -> (root: String, expected: [(path: String, payload: String?)]) {
        let root = dir.appendingPathComponent("photos")
        let background = try SampleMedia.photo("building.jpg").pixelBuffer
        var expected: [(String, String?)] = []
        for index in 0..<count {
            let folder = root.appendingPathComponent(index % 2 == 0 ? "even" : "odd/deeper")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            var composer = SceneComposer(background: background, width: 320, height: 240)
            let payload = "batch item \(index)"
            try composer.place(.qr, payload: .text(payload), pose: CodePose(center: PixelPoint(x: 160, y: 120), width: 150))
            let file = folder.appendingPathComponent(String(format: "scene%02d.%@", index, index % 3 == 0 ? "png" : "jpg"))
            try ImageEncoder.write(composer.render(), to: file, as: index % 3 == 0 ? .png : .jpeg(quality: 90))
            expected.append((file.path, payload))
        }
        // A link to a photo is the photo.
        let alias = root.appendingPathComponent("alias.png")
        try FileManager.default.createSymbolicLink(atPath: alias.path, withDestinationPath: expected[0].0)
        expected.append((alias.path, expected[0].1))
        let broken = root.appendingPathComponent("odd/broken.jpg")
        try Data("these are notes, not a photo".utf8).write(to: broken)
        expected.append((broken.path, nil))
        try Data("ignored".utf8).write(to: root.appendingPathComponent("readme.txt"))
        try Data("ignored".utf8).write(to: root.appendingPathComponent(".hidden.jpg"))
        return (root.path, expected.sorted { $0.0 < $1.0 })
    }

    func lines(_ text: String) throws -> [[String: Any]] {
        try text.split(separator: "\n").map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any], "not JSON: \($0)")
        }
    }

    func payload(_ line: [String: Any]) -> String? {
        ((line["barcodes"] as? [[String: Any]])?.first?["payload"]) as? String
    }

    @Test func directoriesAreWalkedAndJSONLinesHaveEveryFileOnce() throws {
        let corpus = try corpus()
        let run = try kamera(["detect", "--format", "jsonl", corpus.root])
        #expect(run.status == 1, "the broken file makes the batch exit 1: \(run.stderr)")
        let results = try lines(run.stdout)
        #expect(results.map { $0["input"] as? String } == corpus.expected.map(\.path))
        for (result, expected) in zip(results, corpus.expected) {
            if let text = expected.payload {
                #expect(payload(result) == text && result["error"] == nil, "\(expected.path)")
            } else {
                let error = try #require(result["error"] as? [String: String])
                #expect(error["code"] == "unsupportedFormat" && error["message"]?.contains("not a supported image") == true)
            }
        }
        // The same batch as one JSON document, and from a path list on stdin.
        let document = try kamera(["detect", corpus.root])
        #expect((document.json?["results"] as? [[String: Any]])?.count == corpus.expected.count)
        let listed = try kamera(
            ["detect", "--format", "jsonl", "-"],
            stdin: Data(corpus.expected.map(\.path).joined(separator: "\n").utf8))
        #expect(listed.stdout == run.stdout)
    }

    @Test("A folder given as a link to the photos (photos -> /shared/photos on a cluster) is walked, paths spelled as given")
    func aLinkedFolderIsWalked() throws {
        let corpus = try corpus()
        let link = dir.appendingPathComponent("linked")
        try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: corpus.root)
        let direct = try kamera(["detect", "--format", "jsonl", corpus.root])
        let linked = try kamera(["detect", "--format", "jsonl", link.path])
        let results = try lines(linked.stdout)
        #expect(results.count == corpus.expected.count)
        #expect(results.map { $0["input"] as? String } == corpus.expected.map { link.path + $0.path.dropFirst(corpus.root.count) })
        #expect(linked.stdout == direct.stdout.replacingOccurrences(of: corpus.root, with: link.path))
    }

    @Test func jobsKeepInputOrderUnlessUnordered() throws {
        let corpus = try corpus()
        let one = try kamera(["detect", "--format", "jsonl", "--jobs", "1", corpus.root])
        let two = try kamera(["detect", "--format", "jsonl", "--jobs", "2", corpus.root])
        #expect(one.stdout == two.stdout && !one.stdout.isEmpty)
        let unordered = try kamera(["detect", "--format", "jsonl", "--jobs", "3", "--unordered", corpus.root])
        #expect(Set(unordered.stdout.split(separator: "\n")) == Set(one.stdout.split(separator: "\n")))
    }

    @Test func theUnionOfAllShardsIsOneRun() throws {
        let corpus = try corpus()
        let whole = try kamera(["detect", "--format", "jsonl", corpus.root])
        var union: [Substring] = []
        for index in 0..<3 {
            let shard = try kamera(["detect", "--format", "jsonl", "--shard", "\(index)/3", corpus.root])
            let part = shard.stdout.split(separator: "\n")
            #expect(part.count == (corpus.expected.count - index + 2) / 3, "shard \(index)")
            union += part
        }
        #expect(union.count == corpus.expected.count)
        #expect(Set(union) == Set(whole.stdout.split(separator: "\n")))
    }

    @Test func resumeSkipsFinishedFilesAndRepairsACutLine() throws {
        let corpus = try corpus()
        let log = dir.appendingPathComponent("results.jsonl").path
        // A previous run that was killed: two complete lines and half of a third.
        let first = try kamera(["detect", "--format", "jsonl", "--jobs", "1", corpus.root])
        let firstLines = first.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        let killed = firstLines[0] + "\n" + firstLines[1] + "\n" + firstLines[2].prefix(25)
        try Data(killed.utf8).write(to: URL(fileURLWithPath: log))

        let resumed = try kamera(["detect", "--resume", log, corpus.root])
        #expect(resumed.status == 1 && resumed.stdout.isEmpty)
        #expect(resumed.stderr.contains("\(corpus.expected.count - 2) files analysed (1 failed), 2 already in"), "\(resumed.stderr)")
        let written = try lines(try String(contentsOfFile: log, encoding: .utf8))
        #expect(written.count == corpus.expected.count)
        #expect(Set(written.compactMap { $0["input"] as? String }) == Set(corpus.expected.map(\.path)))

        // Done: a third run analyses nothing and leaves the file as it is.
        let before = try Data(contentsOf: URL(fileURLWithPath: log))
        let again = try kamera(["detect", "--resume", log, corpus.root])
        #expect(again.status == 0 && again.stderr.contains("0 files analysed (0 failed), \(corpus.expected.count) already in"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: log)) == before)

        // A file that is not a result log is refused rather than appended to.
        let notes = dir.appendingPathComponent("notes.txt").path
        try Data("shopping list\nmilk\n".utf8).write(to: URL(fileURLWithPath: notes))
        let refused = try kamera(["detect", "--resume", notes, corpus.root])
        #expect(refused.status == 64 && refused.stderr.contains("not a kamera result"))
        #expect(try String(contentsOfFile: notes, encoding: .utf8) == "shopping list\nmilk\n")
    }

    @Test func badPathsAreReportedPerFileAndTheBatchGoesOn() throws {
        let corpus = try corpus(count: 2)
        let missing = dir.appendingPathComponent("gone.jpg").path
        let emptyFolder = dir.appendingPathComponent("empty-folder").path
        try FileManager.default.createDirectory(atPath: emptyFolder, withIntermediateDirectories: true)
        let run = try kamera(["detect", "--format", "jsonl", missing, emptyFolder, corpus.root])
        #expect(run.status == 1)
        let results = try lines(run.stdout)
        #expect(results.map { $0["input"] as? String } == [missing] + corpus.expected.map(\.path))
        #expect((results[0]["error"] as? [String: String])?["message"]?.contains("gone.jpg") == true)
        #expect(results.compactMap(payload) == corpus.expected.compactMap(\.payload))
    }

    @Test(arguments: [
        ["--shard", "3/3"], ["--shard", "1"], ["--shard", "-1/2"], ["--jobs", "0"],
        ["--resume", "x.jsonl", "--format", "json"], ["--format", "xml"],
    ])
    func batchUsageErrorsExit64(_ options: [String]) throws {
        let run = try kamera(["detect"] + options + [dir.path])
        #expect(run.status == 64, "\(options): \(run.stderr)")
    }
}
