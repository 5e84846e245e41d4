import Foundation
import Kamera
import KameraTestMedia
import KameraTestTiers
import Testing

/// `kamera stabilize` on real footage shaken along a known path.
@Suite(.tier(.endToEnd)) struct StabilizeCLITests {
    static func movie(_ clip: ShakenClip) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("kamera-shaken-\(UUID().uuidString).mp4")
        let first = clip.frames[0]
        let recorder = try MovieRecorder(
            url: url, settings: RecordingSettings(width: first.width, height: first.height, frameRate: clip.frameRate, quality: 12))
        for (i, frame) in clip.frames.enumerated() { _ = try recorder.append(frame, at: Double(i) / clip.frameRate) }
        _ = try recorder.finish()
        return url
    }

    @Test func steadiesAMovieAndRecordsEachFramesCorrection() throws {
        let clip = try ShakenClip.make(seed: 40, frameCount: 60)
        let input = try Self.movie(clip)
        let output = input.deletingPathExtension().appendingPathExtension("steady.mp4")
        let motions = input.deletingPathExtension().appendingPathExtension("jsonl")
        defer { for u in [input, output, motions] { try? FileManager.default.removeItem(at: u) } }
        let run = try kamera(["stabilize", input.path, "-o", output.path, "--motions", motions.path])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("60 frames") && run.stderr.contains("zoom"), "\(run.stderr)")
        let reader = try MovieReader(path: output.path)
        #expect(reader.width == clip.frames[0].width && reader.height == clip.frames[0].height)
        var frames = 0
        while try reader.nextFrame() != nil { frames += 1 }
        #expect(frames == 60)
        let lines = try String(contentsOf: motions, encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 60)
        // Each correction cancels the shake: the truth's frame-to-frame motion, undone by it,
        // leaves the picture's centre moving smoothly (checked on the written numbers).
        let records = try lines.map { try JSONDecoder().decode(Record.self, from: Data($0.utf8)) }
        #expect(records[0].motion == nil && records[1].motion != nil)
        let centres = zip(clip.poses, records).map { pose, record -> Double in
            pose.centre.x + SimilarityTransform(rotation: pose.roll).apply(record.correction.inverse.apply(PixelPoint(x: 0, y: 0))).x
        }
        #expect(Self.jerk(centres) < Self.jerk(clip.poses.map(\.centre.x)) / 5)
    }

    /// RMS second difference: the jerk a viewer sees.
    static func jerk(_ values: [Double]) -> Double {
        var total = 0.0
        for k in 1..<(values.count - 1) {
            let term: Double = values[k - 1] - 2 * values[k] + values[k + 1]
            total += term * term
        }
        return (total / Double(values.count - 2)).squareRoot()
    }

    @Test func recordsSteadiedFramesLiveAndKeepsEveryFrame() throws {
        let clip = try ShakenClip.make(seed: 42, frameCount: 30)
        let input = try Self.movie(clip)
        let output = input.deletingPathExtension().appendingPathExtension("mov")
        defer { for u in [input, output] { try? FileManager.default.removeItem(at: u) } }
        let run = try kamera(["record", input.path, "-o", output.path, "--stabilize", "standard"])
        #expect(run.status == 0, "\(run.stderr)")
        let summary = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any]
        #expect(summary?["frames"] as? Int == 30, "\(run.stdout)")
        // The steadied first frame is magnified and moved: not the input's picture.
        let written = try #require(try MovieReader(path: output.path).nextFrame()).pixelBuffer
        let original = try #require(try MovieReader(path: input.path).nextFrame()).pixelBuffer
        var difference = 0
        for (a, b) in zip(written.bytes, original.bytes) { difference += abs(Int(a) - Int(b)) }
        #expect(difference / written.bytes.count > 3, "mean difference \(difference / written.bytes.count)")
    }

    struct Record: Decodable {
        var frame: Int
        var motion: SimilarityTransform?
        var correction: SimilarityTransform
    }

    @Test func readsStandardInputAndRefusesBadInput() throws {
        let clip = try ShakenClip.make(seed: 41, frameCount: 20)
        let input = try Self.movie(clip)
        let output = input.deletingPathExtension().appendingPathExtension("steady.mp4")
        defer { for u in [input, output] { try? FileManager.default.removeItem(at: u) } }
        let piped = try kamera(["stabilize", "-", "-o", output.path, "--mode", "cinematic"], stdin: try Data(contentsOf: input))
        #expect(piped.status == 0, "\(piped.stderr)")
        #expect(FileManager.default.fileExists(atPath: output.path))
        // Truncated: the error names the file and nothing is left under the output's name.
        let truncated = input.deletingPathExtension().appendingPathExtension("cut.mp4")
        let broken = output.deletingPathExtension().appendingPathExtension("broken.mp4")
        defer { for u in [truncated, broken] { try? FileManager.default.removeItem(at: u) } }
        try Data(try Data(contentsOf: input).prefix(3000)).write(to: truncated)
        let bad = try kamera(["stabilize", truncated.path, "-o", broken.path])
        #expect(bad.status != 0)
        #expect(bad.stderr.contains("not a readable video") && bad.stderr.contains(truncated.lastPathComponent), "\(bad.stderr)")
        #expect(!FileManager.default.fileExists(atPath: broken.path))
        let range = try kamera(["stabilize", input.path, "-o", broken.path, "--max-crop", "0.9"])
        #expect(range.status != 0 && range.stderr.contains("--max-crop"), "\(range.stderr)")
        let mode = try kamera(["stabilize", input.path, "-o", broken.path, "--mode", "wobbly"])
        #expect(mode.status != 0)
    }
}
