import Foundation
import Kamera
import KameraTestMedia
import KameraTestTiers
import Testing

/// `kamera snap` from a video standing in for a camera (no camera exists here).
@Suite(.tier(.endToEnd)) struct SnapCLITests {
    @Test func takesAFullResolutionPhotoWithOrientationAndTime() throws {
        let video = try SampleMedia.url("Megamind.avi")
        let photo = FileManager.default.temporaryDirectory.appendingPathComponent("kamera-snap-\(UUID()).jpg")
        defer { try? FileManager.default.removeItem(at: photo) }
        let before = Date()
        let run = try kamera(["snap", video.path, "--at", "2", "--rotation", "90", "-o", photo.path])
        #expect(run.status == 0, "\(run.stderr)")
        let summary = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        #expect(summary["width"] as? Int == 720 && summary["height"] as? Int == 528 && summary["orientation"] as? Int == 6)
        let data = try Data(contentsOf: photo)
        let stored = try ImageDecoder.decode(data, options: ImageDecodingOptions(appliesOrientation: false))
        #expect(stored.width == 720 && stored.height == 528 && stored.sourceOrientation == .right)
        #expect(try ImageDecoder.decode(data).width == 528)
        // The frame at 2 s, not the first: it differs from frame 0.
        let first = try #require(try MovieReader(path: video.path).nextFrame()).pixelBuffer
        var difference = 0
        for (a, b) in zip(stored.pixelBuffer.converted(to: .rgb8).bytes, first.bytes) { difference += abs(Int(a) - Int(b)) }
        #expect(difference / first.bytes.count > 5)
        let taken = try #require((summary["taken"] as? String).flatMap { ISO8601DateFormatter().date(from: $0) })
        #expect(taken.timeIntervalSince(before) > -2 && taken.timeIntervalSince(before) < 60)
    }

    @Test func refusesWhatCannotBe() throws {
        let video = try SampleMedia.url("Megamind.avi").path
        for arguments in [
            ["snap", video, "-o", "/tmp/x.png"], ["snap", video, "--rotation", "45", "-o", "/tmp/x.jpg"],
            ["snap", video, "--focus", "near", "-o", "/tmp/x.jpg"], ["snap", "-o", "/tmp/x.jpg"],
            ["snap", video, "--at", "nan", "-o", "/tmp/x.jpg"],
        ] {
            let run = try kamera(arguments)
            #expect(run.status == 64, "\(arguments): \(run.status) \(run.stderr)")
        }
        let missing = try kamera(["snap", "--camera", "/nonexistent/video7", "-o", "/tmp/kamera-snap-missing.jpg"])
        #expect(missing.status == 1 && missing.stderr.contains("/nonexistent/video7"), "\(missing.stderr)")
        #expect(!FileManager.default.fileExists(atPath: "/tmp/kamera-snap-missing.jpg"))
    }
}
