import Foundation
import Kamera
import KameraTestTiers
import Testing

/// Event clips cut from a test pattern whose frames carry their own number: which frames a
/// clip holds is read back from the clip itself, decoded.
@Suite(.tier(.media)) struct EventClipRecorderTests {
    static let fps = 15.0
    let pattern = TestPatternSource(width: 320, height: 240, frameRate: fps)

    /// The pattern's frame numbers in `url`, decoded, and the clip's first frame time.
    func frameNumbers(_ url: URL) throws -> [Int] {
        let reader = try MovieReader(path: url.path)
        var numbers: [Int] = []
        while let frame = try reader.nextFrame() { numbers.append(TestPatternSource.index(in: frame.pixelBuffer)) }
        return numbers
    }

    /// Feeds frames `range`, noting the event on the frames `events` lists; returns what
    /// the recorder reported.
    func feed(
        _ recorder: EventClipRecorder, _ range: Range<Int>, events: (Int) -> Bool
    ) throws -> (started: [(url: URL, startTime: Double)], finished: [EventClip]) {
        var started: [(URL, Double)] = [], finished: [EventClip] = []
        for index in range {
            let frame = pattern.frame(index)
            if events(index) { recorder.noteEvent(at: frame.time) }
            for progress in try recorder.append(frame.pixelBuffer, at: frame.time) {
                switch progress {
                case .started(let url, let start, _): started.append((url, start))
                case .finished(let clip): finished.append(clip)
                case .skipped(_, let reason): Issue.record("skipped: \(reason)")
                }
            }
        }
        return (started, finished)
    }

    func directory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("kamera-clips-\(UUID())")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    @Test("A clip starts on a key frame at least the pre-roll before the event, holds every frame once, ends the post-roll after it")
    func preRollAndPostRoll() throws {
        let folder = try directory()
        defer { try? FileManager.default.removeItem(at: folder) }
        var settings = EventClipSettings(width: 320, height: 240, frameRate: Self.fps, preRoll: 3, postRoll: 2)
        settings.keyFrameInterval = 1
        var count = 0
        let recorder = try EventClipRecorder(settings: settings) { _ in
            count += 1
            return folder.appendingPathComponent("clip\(count).mp4")
        }
        // The event is seen on frames 100…129 (6.7 s to 8.6 s), then never again.
        let fed = try feed(recorder, 0..<220) { (100..<130).contains($0) }
        #expect(fed.started.count == 1 && fed.finished.count == 1)
        let clip = try #require(fed.finished.first)
        #expect(clip.stopReason == .finished)
        let numbers = try frameNumbers(clip.url)
        let first = try #require(numbers.first), last = try #require(numbers.last)
        // At least 3 s (45 frames) before frame 100, on a key frame (every 15th): frame 45 at the latest.
        #expect(first <= 100 - 45 && first % 15 == 0 && first >= 100 - 45 - 15)
        #expect(abs(clip.eventOffset - Double(100 - first) / Self.fps) < 0.01)
        // The post-roll: 2 s (30 frames) after frame 129.
        #expect(last >= 129 + 30 && last <= 129 + 31)
        #expect(numbers == Array(first...last))
        #expect(clip.frames == numbers.count && abs(clip.duration - Double(numbers.count) / Self.fps) < 0.01)
        #expect(abs(clip.startTime - Double(first) / Self.fps) < 0.01)
    }

    @Test("Two events apart get two clips that never share a frame; a clip at its length limit is carried on by the next")
    func separateAndContinuedClips() throws {
        let folder = try directory()
        defer { try? FileManager.default.removeItem(at: folder) }
        var settings = EventClipSettings(width: 320, height: 240, frameRate: Self.fps, preRoll: 4, postRoll: 1, maximumDuration: 4)
        settings.keyFrameInterval = 1
        var count = 0
        let recorder = try EventClipRecorder(settings: settings) { _ in
            count += 1
            return folder.appendingPathComponent("clip\(count).mov")
        }
        // Events at frame 40 and 75: the second one's pre-roll reaches into the first clip.
        let apart = try feed(recorder, 0..<110) { $0 == 40 || $0 == 75 }
        #expect(apart.finished.count == 2)
        let a = try frameNumbers(apart.finished[0].url), b = try frameNumbers(apart.finished[1].url)
        #expect(a.first == 0 && (a.last ?? 0) >= 55)
        #expect(Set(a).isDisjoint(with: b) && b.first.map { $0 > a.last! && $0 % 15 == 0 } == true && (b.last ?? 0) >= 90)
        // An event going on for 10 s: clips of at most 4 s, one after another without a gap.
        let long = try feed(recorder, 110..<320) { (150..<290).contains($0) }
        let clips = long.finished
        #expect(clips.count >= 3 && clips.dropLast().allSatisfy { $0.stopReason == .maximumDurationReached })
        var previous: Int?
        for clip in clips {
            let numbers = try frameNumbers(clip.url)
            #expect(numbers.count <= 4 * 15 && numbers == Array(numbers.first!...numbers.last!))
            if let previous { #expect(numbers.first == previous + 1) }
            previous = numbers.last
        }
        // A clip carrying an event on from the one before has it at its start, never before.
        #expect(clips.allSatisfy { $0.eventOffset >= 0 }, "\(clips.map(\.eventOffset))")
        #expect(recorder.finish() == nil)
    }

    @Test("The pre-roll stays within its memory bound on incompressible frames, shortened rather than grown")
    func boundedBuffer() throws {
        var settings = EventClipSettings(width: 320, height: 240, frameRate: Self.fps, preRoll: 30, postRoll: 1)
        settings.maximumBufferBytes = 1 << 20
        settings.quality = 0
        let recorder = try EventClipRecorder(settings: settings) { _ in throw KameraError.invalidArgument("no clip expected") }
        var largest = 0
        for index in 0..<120 {
            _ = try recorder.append(noiseFrame(UInt64(index)), at: Double(index) / Self.fps)
            largest = max(largest, recorder.bufferedBytes)
        }
        // One group of pictures (at most 15 frames of ~230 kB) may go over: the newest is kept whole.
        #expect(largest <= (1 << 20) + 15 * 240_000 && recorder.bufferedBytes > 0)
    }

    @Test("An event whose clip cannot be written is reported skipped; bad settings and times are typed errors")
    func failures() throws {
        let recorder = try EventClipRecorder(settings: EventClipSettings(width: 320, height: 240, frameRate: Self.fps)) { _ in
            URL(fileURLWithPath: "/nonexistent-kamera/clip.mp4")
        }
        recorder.noteEvent(at: 0)
        let progress = try recorder.append(pattern.frame(0).pixelBuffer, at: 0)
        guard case .skipped(_, let reason) = progress.first else {
            Issue.record("expected a skipped clip, got \(progress)")
            return
        }
        #expect(reason.code == .writeFailed && !recorder.isWritingClip)
        #expect(throws: KameraError.self) { try recorder.append(pattern.frame(1).pixelBuffer, at: .nan) }
        #expect(throws: KameraError.self) { try recorder.append(pattern.frame(1).pixelBuffer, at: -1e300) }
        #expect(throws: KameraError.self) { try recorder.append(PixelBuffer(width: 64, height: 64, format: .rgb8), at: 1) }
        for bad in [
            EventClipSettings(width: 321, height: 240), EventClipSettings(width: 320, height: 240, preRoll: -1),
            EventClipSettings(width: 320, height: 240, postRoll: .infinity), EventClipSettings(width: 320, height: 240, preRoll: 1e300),
        ] {
            #expect(throws: KameraError.self) { try EventClipRecorder(settings: bad) { _ in URL(fileURLWithPath: "/tmp/x.mp4") } }
        }
    }
}
