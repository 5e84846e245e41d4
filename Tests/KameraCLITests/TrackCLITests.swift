import Foundation
import Kamera
import KameraTestMedia
import KameraTestTiers
import Testing

/// `kamera track`: a sequence with known boxes written as a movie, followed from the first
/// frame's box.
@Suite(.tier(.endToEnd)) struct TrackCLITests {
    static func movie(_ sequence: TrackingSequence) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("kamera-track-\(UUID().uuidString).mp4")
        let first = sequence.frames[0].image
        let recorder = try MovieRecorder(
            url: url, settings: RecordingSettings(width: first.width, height: first.height, frameRate: 25, quality: 12))
        for (i, frame) in sequence.frames.enumerated() { _ = try recorder.append(frame.image, at: Double(i) / 25) }
        _ = try recorder.finish()
        return url
    }

    static func lines(_ text: String) -> [[String: Any]] {
        text.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
    }

    @Test func tracksAnObjectThroughAnExitAndWritesEventsAndAMovie() throws {
        let sequence = try TrackingSequence.make(video: "vtest.avi", target: .photo, challenge: .exit, seed: 3002, frameCount: 90)
        let input = try Self.movie(sequence)
        let events = input.deletingPathExtension().appendingPathExtension("jsonl")
        let annotated = input.deletingPathExtension().appendingPathExtension("annotated.mp4")
        defer { for u in [input, events, annotated] { try? FileManager.default.removeItem(at: u) } }
        let b = try #require(sequence.frames[0].box)
        let run = try kamera([
            "track", input.path, "--box", "\(b.x),\(b.y),\(b.width),\(b.height)", "--events", events.path, "--annotate", annotated.path,
        ])
        #expect(run.status == 0, "\(run.stderr)")
        let lines = Self.lines(try String(contentsOf: events, encoding: .utf8))
        #expect(lines.count == 90)
        let first = try #require(lines.first)
        #expect(Array(first.keys).sorted() == ["confidence", "frame", "lost", "pixelBox", "t"])
        var hits = 0, visible = 0
        for (line, frame) in zip(lines, sequence.frames) {
            let box = try #require(line["pixelBox"] as? [String: Double])
            let found = PixelRect(x: box["x"]!, y: box["y"]!, width: box["width"]!, height: box["height"]!)
            let lost = try #require(line["lost"] as? Bool)
            if let truth = frame.box {
                visible += 1
                if !lost && found.intersectionOverUnion(truth) > 0.5 { hits += 1 }
            } else {
                #expect(lost, "frame \(line["frame"] ?? "?"): the object is out of view")
            }
        }
        #expect(Double(hits) / Double(visible) >= 0.8, "\(hits)/\(visible)")
        let movie = try MovieReader(path: annotated.path)
        #expect(movie.width == 640 && movie.height == 480)
    }

    @Test func rectangleModeFollowsCorners() throws {
        let sequence = try TrackingSequence.make(video: "Megamind.avi", target: .card, challenge: .motion, seed: 3009, frameCount: 30)
        let input = try Self.movie(sequence)
        defer { try? FileManager.default.removeItem(at: input) }
        let b = try #require(sequence.frames[0].box)
        // A rough box: 8 px larger all round.
        let run = try kamera([
            "track", input.path, "--rectangle", "--level", "fast", "--box", "\(b.x - 8),\(b.y - 8),\(b.width + 16),\(b.height + 16)",
        ])
        #expect(run.status == 0, "\(run.stderr)")
        let lines = Self.lines(run.stdout)
        #expect(lines.count == 30)
        for (line, frame) in zip(lines, sequence.frames) {
            let corners = try #require(line["pixelCorners"] as? [[Double]])
            let error = zip(corners, frame.corners.corners).map { hypot($0[0] - $1.x, $0[1] - $1.y) }.max()!
            #expect(error < 8, "frame \(line["frame"] ?? "?"): corner error \(error)")
        }
    }

    @Test func scanRectanglesReportsFollowedCornersAndEvents() throws {
        let sequence = try TrackingSequence.make(video: "Megamind.avi", target: .card, challenge: .motion, seed: 3009, frameCount: 30)
        let input = try Self.movie(sequence)
        defer { try? FileManager.default.removeItem(at: input) }
        let run = try kamera(["scan", "--rectangles", input.path])
        #expect(run.status == 0, "\(run.stderr)")
        let lines = Self.lines(run.stdout)
        #expect(lines.count == 31, "30 frames and the end line")
        let first = try #require(lines.first)
        #expect(first["faces"] == nil || (first["faces"] as? [Any])?.isEmpty == true, "rectangles only: no faces looked for")
        let rectangles = try #require(first["rectangles"] as? [[String: Any]])
        let rectangle = try #require(rectangles.first)
        #expect(rectangle["rectangleID"] as? Int == 1 && rectangle["detected"] as? Bool == true)
        #expect((first["events"] as? [[String: String]])?.first == ["type": "appeared", "kind": "rectangle", "id": "1"])
        let later = try #require((lines[20]["rectangles"] as? [[String: Any]])?.first)
        #expect(later["rectangleID"] as? Int == 1 && later["detected"] as? Bool == false)
        let corners = try #require(later["pixelCorners"] as? [[Double]])
        let error = zip(corners, sequence.frames[20].corners.corners).map { hypot($0[0] - $1.x, $0[1] - $1.y) }.max()!
        #expect(error < 8, "corner error \(error)")
        #expect((lines.last?["events"] as? [[String: String]])?.contains(["type": "lost", "kind": "rectangle", "id": "1"]) == true)
        // Without --rectangles the key is absent, as before.
        let plain = try kamera(["scan", "--barcodes", "--max-frames", "2", input.path])
        #expect(Self.lines(plain.stdout).first?["rectangles"] == nil)
    }

    @Test func badBoxesAndInputsAreErrors() throws {
        let sequence = try TrackingSequence.make(video: "vtest.avi", target: .photo, challenge: .motion, seed: 3000, frameCount: 3)
        let input = try Self.movie(sequence)
        defer { try? FileManager.default.removeItem(at: input) }
        #expect(try kamera(["track", input.path, "--box", "1,2,3"]).status == 64)
        #expect(try kamera(["track", input.path, "--box", "10,10,2,2"]).status == 64)
        #expect(try kamera(["track", input.path, "--box", "5000,5000,50,50"]).status == 64)
        #expect(try kamera(["track", "/nonexistent.mp4", "--box", "10,10,50,50"]).status == 1)
        // No rectangle in a plain corner of the frame.
        let none = try kamera(["track", input.path, "--rectangle", "--box", "0,0,40,40"])
        #expect(none.status == 1 && none.stderr.contains("no rectangle found"), "\(none.stderr)")
        // Not a movie.
        let text = FileManager.default.temporaryDirectory.appendingPathComponent("kamera-track-\(UUID().uuidString).mp4")
        try Data("not a movie".utf8).write(to: text)
        defer { try? FileManager.default.removeItem(at: text) }
        #expect(try kamera(["track", text.path, "--box", "10,10,50,50"]).status == 1)
    }
}
