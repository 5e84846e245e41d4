import Foundation
import Kamera
import KameraTestMedia
import KameraTestTiers
import Testing

/// `kamera scan --bodies --hands --background`: a second of a camera panning across a real
/// photo of a basketball player, through the CLI.
@Suite(.tier(.endToEnd)) struct ScanPeopleCLITests {
    @Test func bodiesAndHandsKeepTheirIDsAndTheBackgroundIsReplaced() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("kamera-scan-people-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let photo = try SampleMedia.photo("basketball1.png").pixelBuffer.converted(to: .rgb8)
        let movie = directory.appendingPathComponent("pan.mp4")
        let recorder = try MovieRecorder(url: movie, settings: RecordingSettings(width: 560, height: 480, frameRate: 30))
        for i in 0..<30 {
            _ = try recorder.append(photo.cropped(to: PixelRect(x: Double(2 * i), y: 0, width: 560, height: 480)), at: Double(i) / 30)
        }
        _ = try recorder.finish()
        let events = directory.appendingPathComponent("people.jsonl"), annotated = directory.appendingPathComponent("out.mp4")
        let run = try kamera([
            "scan", movie.path, "--bodies", "--hands", "--background", "color", "--events", events.path, "--annotate", annotated.path,
        ])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("1 bodies") && !run.stderr.contains("faces"), "\(run.stderr)")
        let records = try String(contentsOf: events, encoding: .utf8).split(separator: "\n").map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        #expect(records.count == 31)
        let frames = records.dropLast()
        let bodyIDs = Set(frames.flatMap { ($0["bodies"] as? [[String: Any]] ?? []).compactMap { $0["bodyID"] as? Int } })
        #expect(bodyIDs == [1])
        #expect(frames.allSatisfy { ($0["bodies"] as? [Any])?.count == 1 && $0["hands"] is [Any] && $0["personMask"] is [String: Any] })
        // Codes and faces were not asked for: a background alone names what runs.
        #expect(frames.allSatisfy { ($0["barcodes"] as? [Any])?.isEmpty == true && ($0["faces"] as? [Any])?.isEmpty == true })
        let end = try #require(records.last?["events"] as? [[String: Any]])
        #expect(end.contains { $0["kind"] as? String == "body" && $0["id"] as? String == "1" && $0["type"] as? String == "lost" })
        // The annotated movie's background is green-screen green (top right: the wall behind the player).
        let reader = try MovieReader(path: annotated.path)
        let first = try #require(try reader.nextFrame()).pixelBuffer.converted(to: .rgb8)
        let corner = first.pixel(x: first.width - 20, y: 20).map(Int.init)
        #expect(abs(corner[0] - 0) < 32 && abs(corner[1] - 177) < 32 && abs(corner[2] - 64) < 32, "\(corner)")
    }

    @Test func backgroundOptionsAreCheckedAndPhotosRefuseThem() throws {
        let photo = try SampleMedia.url("messi5.jpg").path
        let detect = try kamera(["detect", photo, "--background", "blur"])
        #expect(detect.status != 0 && detect.stderr.contains("background is for streams"), "\(detect.stderr)")
        let radius = try kamera(["scan", photo, "--blur-radius", "5"])
        #expect(radius.status == 64 && radius.stderr.contains("--blur-radius needs --background blur"), "\(radius.stderr)")
        let colour = try kamera(["scan", photo, "--background", "color", "--background-color", "green"])
        #expect(colour.status == 64 && colour.stderr.contains("#rrggbb"), "\(colour.stderr)")
    }
}
