import Foundation
import Kamera
import KameraTestMedia
import KameraTestTiers
import Testing

/// The `kamera` executable built next to this test runner.
func kameraExecutable() -> URL {
    let directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    let candidate = directory.appendingPathComponent("kamera")
    return FileManager.default.fileExists(atPath: candidate.path)
        ? candidate : directory.deletingLastPathComponent().appendingPathComponent("kamera")
}

/// Frames ffprobe decodes from `path`, or nil when it cannot read the file at all.
func ffprobeFrameCount(_ path: String) -> Int? {
    guard
        let output = try? tool(
            "ffprobe",
            [
                "-v", "error", "-count_frames", "-select_streams", "v:0",
                "-show_entries", "stream=nb_read_frames", "-of", "csv=p=0", path,
            ])
    else { return nil }
    return Int(output.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: ",").first ?? "")
}

/// Incompressible frames, for the size and disk limits.
func noiseFrame(_ seed: UInt64, width: Int = 320, height: Int = 240) -> PixelBuffer {
    var random = SeededRandom(seed: seed)
    var buffer = PixelBuffer(width: width, height: height, format: .rgb8)
    for i in buffer.bytes.indices { buffer.bytes[i] = UInt8.random(in: 0...255, using: &random) }
    return buffer
}

@Suite(.tier(.media)) struct MovieRecorderTests {
    @Test(arguments: ["mov", "mp4"])
    func recordsEveryFrameInOrder(container: String) throws {
        let path = temporaryFile("pattern.\(container)")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let pattern = TestPatternSource(width: 320, height: 240, frameRate: 30)
        let recorder = try MovieRecorder(url: URL(fileURLWithPath: path), settings: RecordingSettings(width: 320, height: 240))
        for index in 0..<60 {
            let frame = pattern.frame(index)
            #expect(try recorder.append(frame.pixelBuffer, at: frame.time))
        }
        #expect(abs(recorder.recordedDuration - 2) < 0.01 && recorder.recordedFrames == 60)
        let summary = try recorder.finish()
        #expect(summary.stopReason == .finished && summary.frames == 60 && summary.bytes > 0)
        #expect(ffprobeFrameCount(path) == 60)
        let reader = try MovieReader(path: path)
        var indices: [Int] = []
        while let frame = try reader.nextFrame() {
            indices.append(TestPatternSource.index(in: frame.pixelBuffer))
            #expect(abs(frame.time - Double(frame.index) / 30) < 0.002)
        }
        #expect(indices == Array(0..<60))
        // Fragmented: an empty moov up front, then movie fragments.
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(bytes.range(of: Data("moof".utf8)) != nil && bytes.range(of: Data("mvex".utf8)) != nil)
    }

    /// The seed's reason for fragments: a recording killed midway is still playable, losing at
    /// most the fragment in progress; the same kill loses a plain movie entirely.
    @Test func killedRecordingIsStillPlayable() throws {
        func killedRecording(fragmentInterval: Double) throws -> (path: String, seconds: Double) {
            let path = temporaryFile("killed.mov")
            let process = Process()
            process.executableURL = kameraExecutable()
            process.arguments = [
                "record", "--test-pattern", "--realtime", "--size", "640x480", "--fps", "30", "--duration", "60",
                "--fragment-interval", String(fragmentInterval), "-o", path,
            ]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            // Wait until recording has really started, then let it run three more seconds.
            let deadline = Date().addingTimeInterval(20)
            while (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0 == 0 && Date() < deadline {
                Thread.sleep(forTimeInterval: 0.05)
            }
            let started = Date()
            Thread.sleep(forTimeInterval: 3)
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            #expect(process.terminationReason == .uncaughtSignal)
            return (path, Date().timeIntervalSince(started))
        }

        let fragmented = try killedRecording(fragmentInterval: 0.5)
        defer { try? FileManager.default.removeItem(atPath: fragmented.path) }
        let frames = try #require(ffprobeFrameCount(fragmented.path), "ffprobe cannot read the killed fragmented movie")
        // About 30 fps for the time it ran, minus at most the half-second fragment in progress.
        #expect(Double(frames) >= (fragmented.seconds - 0.5) * 30 - 10, "\(frames) frames after \(fragmented.seconds) s")
        let reader = try MovieReader(path: fragmented.path)
        var indices: [Int] = []
        while let frame = try reader.nextFrame() { indices.append(TestPatternSource.index(in: frame.pixelBuffer)) }
        #expect(indices.count == frames)
        #expect(indices == Array(0..<indices.count))

        let plain = try killedRecording(fragmentInterval: 0)
        defer { try? FileManager.default.removeItem(atPath: plain.path) }
        #expect(ffprobeFrameCount(plain.path) == nil || ffprobeFrameCount(plain.path) == 0)
        #expect(throws: KameraError.self) { _ = try MovieReader(path: plain.path).nextFrame() }
    }

    @Test func maximumDurationStopsOnTime() throws {
        let path = temporaryFile("duration.mov")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let pattern = TestPatternSource(width: 320, height: 240)
        let recorder = try MovieRecorder(
            url: URL(fileURLWithPath: path), settings: RecordingSettings(width: 320, height: 240, maximumDuration: 1.5))
        var appended = 0
        for index in 0..<300 {
            let frame = pattern.frame(index)
            guard try recorder.append(frame.pixelBuffer, at: frame.time) else { break }
            appended += 1
        }
        #expect(appended == 45)
        #expect(recorder.stopReason == .maximumDurationReached)
        let summary = try recorder.finish()
        #expect(summary.stopReason == .maximumDurationReached && abs(summary.duration - 1.5) < 0.01)
        #expect(ffprobeFrameCount(path) == 45)
    }

    @Test func maximumFileSizeIsNotExceeded() throws {
        let path = temporaryFile("size.mp4")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let limit: Int64 = 1_500_000
        let recorder = try MovieRecorder(
            url: URL(fileURLWithPath: path),
            settings: RecordingSettings(width: 320, height: 240, fragmentInterval: 0.2, maximumFileSize: limit))
        var appended = 0
        for index in 0..<500 {
            guard try recorder.append(noiseFrame(UInt64(index)), at: Double(index) / 30) else { break }
            appended += 1
        }
        #expect(recorder.stopReason == .maximumFileSizeReached)
        let summary = try recorder.finish()
        #expect(summary.bytes <= limit && summary.bytes > limit / 2, "\(summary.bytes) bytes")
        #expect(ffprobeFrameCount(path) == appended)
    }

    @Test(.enabled(if: getuid() == 0, "needs root to mount a small tmpfs"))
    func lowDiskSpaceStopsCleanly() throws {
        let mountPoint = FileManager.default.temporaryDirectory.appendingPathComponent("kamera-disk-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: mountPoint, withIntermediateDirectories: true)
        _ = try tool("mount", ["-t", "tmpfs", "-o", "size=4m", "tmpfs", mountPoint])
        defer {
            _ = try? tool("umount", [mountPoint])
            try? FileManager.default.removeItem(atPath: mountPoint)
        }
        let path = mountPoint + "/movie.mov"
        let minimum: Int64 = 2_000_000
        let recorder = try MovieRecorder(
            url: URL(fileURLWithPath: path),
            settings: RecordingSettings(width: 320, height: 240, fragmentInterval: 0.2, minimumFreeDiskSpace: minimum))
        for index in 0..<500 {
            guard try recorder.append(noiseFrame(UInt64(index)), at: Double(index) / 30) else { break }
        }
        #expect(recorder.stopReason == .diskSpaceLow)
        let summary = try recorder.finish()
        #expect(summary.frames > 5 && summary.bytes > 1_000_000)
        #expect(ffprobeFrameCount(path) == summary.frames)
        // Already below the minimum: it starts stopped, takes no frame, and says why.
        let second = try MovieRecorder(
            url: URL(fileURLWithPath: mountPoint + "/second.mov"),
            settings: RecordingSettings(width: 320, height: 240, minimumFreeDiskSpace: 3_500_000))
        #expect(try !second.append(noiseFrame(0), at: 0))
        #expect(second.stopReason == .diskSpaceLow)
        let error = try #require(throws: KameraError.self) { try second.finish() }
        #expect(error.code == .nothingRecorded && error.reason.contains("free-space minimum"), "\(error)")
        #expect(!FileManager.default.fileExists(atPath: mountPoint + "/second.mov"))
    }

    @Test(.enabled(if: getuid() == 0, "needs root to mount a small tmpfs"))
    func aFullDiskIsATypedErrorAndKeepsWhatWasWritten() throws {
        let mountPoint = FileManager.default.temporaryDirectory.appendingPathComponent("kamera-full-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: mountPoint, withIntermediateDirectories: true)
        _ = try tool("mount", ["-t", "tmpfs", "-o", "size=1m", "tmpfs", mountPoint])
        defer {
            _ = try? tool("umount", [mountPoint])
            try? FileManager.default.removeItem(atPath: mountPoint)
        }
        let path = mountPoint + "/movie.mp4"
        let recorder = try MovieRecorder(
            url: URL(fileURLWithPath: path), settings: RecordingSettings(width: 320, height: 240, fragmentInterval: 0.2))
        var failure: KameraError?
        for index in 0..<2000 {
            do {
                try recorder.append(noiseFrame(UInt64(index)), at: Double(index) / 30)
            } catch let error as KameraError {
                failure = error
                break
            }
        }
        let error = try #require(failure, "1 MB of noise frames should not fit on a 1 MB disk")
        #expect(error.code == .diskFull, "\(error)")
        let summary = try #require(recorder.conclude(after: error))
        #expect(summary.stopReason == .diskFull && summary.frames > 0)
        // Fragmented: what reached the disk plays.
        #expect((ffprobeFrameCount(path) ?? 0) > 0)
    }

    @Test(arguments: [90, 180, 270])
    func rotationMetadataRoundTrips(degrees: Int) throws {
        let path = temporaryFile("rotated.mov")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let pattern = TestPatternSource(width: 320, height: 240)
        let recorder = try MovieRecorder(
            url: URL(fileURLWithPath: path), settings: RecordingSettings(width: 320, height: 240, rotation: degrees))
        for index in 0..<10 { try recorder.append(pattern.frame(index).pixelBuffer, at: Double(index) / 30) }
        _ = try recorder.finish()
        #expect(try MovieReader(path: path).rotation == degrees)
        let upright = try ThumbnailGenerator().image(forVideoAt: path)
        #expect(degrees == 180 ? upright.width == 320 : upright.width == 240)
        // The same picture as ffmpeg's own autorotation of the file.
        let reference = temporaryFile("reference.png")
        defer { try? FileManager.default.removeItem(atPath: reference) }
        _ = try tool("ffmpeg", ["-v", "error", "-y", "-i", path, "-frames:v", "1", reference])
        let ffmpegFrame = try Image(contentsOf: URL(fileURLWithPath: reference)).pixelBuffer.converted(to: .rgb8)
        #expect(ffmpegFrame.width == upright.width && ffmpegFrame.height == upright.height)
        let difference = zip(upright.bytes, ffmpegFrame.bytes).reduce(0) { $0 + abs(Int($1.0) - Int($1.1)) }
        #expect(Double(difference) / Double(upright.bytes.count) < 8)
    }

    @Test func defaultLocationAndBadSettings() throws {
        let url = try MovieRecorder.defaultURL()
        #expect(url.lastPathComponent == "kamera_movie.mov")
        #expect(url.deletingLastPathComponent().lastPathComponent.hasPrefix("kamera."))
        #expect(url.deletingLastPathComponent().lastPathComponent.count == "kamera.XXXXXX".count)
        #expect(throws: KameraError.self) { try MovieRecorder(settings: RecordingSettings(width: 321, height: 240)) }
        #expect(throws: KameraError.self) { try MovieRecorder(settings: RecordingSettings(width: 320, height: 240, rotation: 45)) }
        #expect(throws: KameraError.self) {
            try MovieRecorder(url: URL(fileURLWithPath: "/nonexistent/dir/movie.mov"), settings: RecordingSettings(width: 320, height: 240))
        }
        let recorder = try MovieRecorder(
            url: URL(fileURLWithPath: temporaryFile("wrong.mov")), settings: RecordingSettings(width: 320, height: 240))
        #expect(throws: KameraError.self) { try recorder.append(noiseFrame(1, width: 160, height: 120), at: 0) }
        // Limits that could never stop a recording, or stop it before it starts, are refused.
        let bad: [RecordingSettings] = [
            RecordingSettings(width: 320, height: 240, maximumDuration: .nan),
            RecordingSettings(width: 320, height: 240, maximumDuration: 0),
            RecordingSettings(width: 320, height: 240, maximumDuration: -1),
            RecordingSettings(width: 320, height: 240, frameRate: .infinity),
            RecordingSettings(width: 320, height: 240, fragmentInterval: .nan),
            RecordingSettings(width: 320, height: 240, maximumFileSize: 0),
        ]
        let badPath = temporaryFile("bad.mp4")
        for settings in bad {
            #expect(throws: KameraError.self) { try MovieRecorder(url: URL(fileURLWithPath: badPath), settings: settings) }
        }
        #expect(!FileManager.default.fileExists(atPath: badPath))
        // MP4 data in a file named .avi would lie about what it is.
        for (name, named) in [("movie.avi", "not .avi"), ("movie.mkv", "not .mkv"), ("movie", "not no extension")] {
            let path = temporaryFile(name)
            do {
                _ = try MovieRecorder(url: URL(fileURLWithPath: path), settings: RecordingSettings(width: 320, height: 240))
                Issue.record("recorded into \(name)")
            } catch let error as KameraError where error.code == .invalidArgument {
                let message = error.reason
                #expect(message.contains("recordings are MPEG-4 (.mp4, .m4v) or QuickTime (.mov) movies, \(named)"), "\(message)")
            }
            #expect(!FileManager.default.fileExists(atPath: path))
        }
        #expect(throws: Never.self) { try MovieRecorder.validateContainer(of: URL(fileURLWithPath: "clip.M4V")) }
    }

    @Test func aRecordingWithoutFramesIsAnErrorAndRemoved() throws {
        let empty = temporaryFile("empty.mp4")
        let recorder = try MovieRecorder(url: URL(fileURLWithPath: empty), settings: RecordingSettings(width: 320, height: 240))
        #expect(throws: KameraError.self) { try recorder.finish() }
        #expect(!FileManager.default.fileExists(atPath: empty))
        // A size limit below the first frame: stopped before any frame, reported as such.
        let tiny = temporaryFile("tiny.mp4")
        let limited = try MovieRecorder(
            url: URL(fileURLWithPath: tiny), settings: RecordingSettings(width: 320, height: 240, maximumFileSize: 100))
        #expect(try limited.append(noiseFrame(2), at: 0) == false)
        do {
            _ = try limited.finish()
            Issue.record("an empty recording finished")
        } catch let error as KameraError where error.code == .nothingRecorded {
            #expect(error.path == tiny && error.reason.contains("larger than the size limit of 100 bytes"))
        }
        #expect(!FileManager.default.fileExists(atPath: tiny))
    }

    @Test func cameraDiscoveryWithoutCameras() throws {
        let present = (try? FileManager.default.contentsOfDirectory(atPath: "/dev"))?.filter { $0.hasPrefix("video") } ?? []
        #expect(CameraDevice.discover().count == present.count)
        let fake = FileManager.default.temporaryDirectory.appendingPathComponent("kamera-dev-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: fake, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: fake) }
        #expect(CameraDevice.discover(in: fake).isEmpty)
        for name in ["video2", "video10", "video0", "vcs"] {
            #expect(FileManager.default.createFile(atPath: fake + "/" + name, contents: nil))
        }
        let found = CameraDevice.discover(in: fake)
        #expect(found.map(\.path) == [fake + "/video0", fake + "/video2", fake + "/video10"])
        // Plain files are no capture devices: listed by name, without formats.
        #expect(found.allSatisfy { $0.formats.isEmpty && $0.name.hasPrefix("video") })
        #expect(throws: KameraError.self) { try MovieReader(camera: CameraDevice(path: "/dev/video99")) }
    }
}
