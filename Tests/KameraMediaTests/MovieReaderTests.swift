import Foundation
import Kamera
import KameraTestMedia
import KameraTestTiers
import Testing

/// Runs a command-line tool (ffmpeg/ffprobe from Debian) and returns its standard output.
func tool(_ name: String, _ arguments: [String]) throws -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/\(name)")
    process.arguments = arguments
    let out = Pipe()
    process.standardOutput = out
    process.standardError = FileHandle.nullDevice
    try process.run()
    let data = out.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else { throw KameraError.invalidArgument("\(name) \(arguments) failed") }
    return String(decoding: data, as: UTF8.self)
}

func temporaryFile(_ name: String) -> String {
    FileManager.default.temporaryDirectory.appendingPathComponent("kamera-media-\(UUID().uuidString)-\(name)").path
}

@Suite(.tier(.media)) struct MovieReaderTests {
    /// Every frame of the packaged videos, as many as ffprobe counts, with rising timestamps.
    @Test(arguments: ["Megamind.avi", "vtest.avi"])
    func readsRealVideosFrameAccurately(name: String) throws {
        let path = try SampleMedia.url(name).path
        let probe = try tool(
            "ffprobe",
            [
                "-v", "error", "-count_frames", "-select_streams", "v:0",
                "-show_entries", "stream=width,height,nb_read_frames", "-of", "csv=p=0", path,
            ])
        let fields = probe.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: ",").compactMap { Int($0) }
        try #require(fields.count == 3)
        let reader = try MovieReader(path: path)
        #expect(reader.width == fields[0] && reader.height == fields[1])
        #expect(reader.rotation == 0)
        var count = 0, lastTime = -1.0
        while let frame = try reader.nextFrame() {
            #expect(frame.time > lastTime)
            #expect(frame.index == count)
            #expect(frame.pixelBuffer.width == fields[0] && frame.pixelBuffer.format == .rgb8)
            lastTime = frame.time
            count += 1
        }
        #expect(count == fields[2])
        if let rate = reader.frameRate, let duration = reader.duration {
            #expect(abs(Double(count) / rate - duration) < 1.0)
        }
        #expect(try reader.nextFrame() == nil)
    }

    /// Other containers and codecs, made from the same clip by ffmpeg, and a file:// URL.
    @Test(arguments: [("mkv", ["-c:v", "libx264"]), ("webm", ["-c:v", "libvpx", "-b:v", "1M"]), ("mov", ["-c:v", "mpeg4"])])
    func containers(container: String, codec: [String]) throws {
        let path = temporaryFile("clip.\(container)")
        defer { try? FileManager.default.removeItem(atPath: path) }
        _ = try tool("ffmpeg", ["-v", "error", "-y", "-i", try SampleMedia.url("Megamind.avi").path, "-t", "2", "-an"] + codec + [path])
        let expected = try #require(ffprobeFrameCount(path))
        let reader = try MovieReader(path: container == "mkv" ? "file://" + path : path)
        var frames = 0
        while try reader.nextFrame() != nil { frames += 1 }
        #expect(frames == expected && frames >= 40)
        #expect(reader.width == 720 && reader.height == 528)
    }

    @Test func seekingIsExactOrTolerant() throws {
        let reader = try MovieReader(path: try SampleMedia.url("Megamind.avi").path, outputFormat: .gray8)
        let rate = try #require(reader.frameRate)
        try reader.seek(to: 5.0)
        let exact = try #require(try reader.nextFrame())
        #expect(exact.time >= 5.0 - 1e-6 && exact.time < 5.0 + 1.5 / rate)
        #expect(exact.pixelBuffer.format == .gray8)
        try reader.seek(to: 5.0, exact: false)
        let tolerant = try #require(try reader.nextFrame())
        #expect(tolerant.time <= exact.time)
        // Seeking back to the start gives the first frame again.
        try reader.seek(to: 0)
        #expect(try reader.nextFrame()?.time ?? 1 < 0.05)
    }

    @Test func badFilesAreTypedErrors() throws {
        #expect(throws: KameraError.self) { try MovieReader(path: "/nonexistent/video.mp4") }
        let empty = temporaryFile("empty.mp4")
        #expect(FileManager.default.createFile(atPath: empty, contents: Data()))
        #expect(throws: KameraError.emptyInput(path: empty)) { try MovieReader(path: empty) }
        let text = temporaryFile("notes.mp4")
        try Data("this is not a video\n".utf8).write(to: URL(fileURLWithPath: text))
        #expect(throws: KameraError.self) { try MovieReader(path: text) }
        var random = SeededRandom(seed: 3)
        let noise = temporaryFile("noise.avi")
        try Data((0..<50_000).map { _ in UInt8.random(in: 0...255, using: &random) }).write(to: URL(fileURLWithPath: noise))
        #expect(throws: KameraError.self) { try MovieReader(path: noise) }
        // A truncated file opens and ends early, or fails to open: never a crash or a hang.
        let full = try Data(contentsOf: try SampleMedia.url("Megamind.avi"))
        for fraction in [0.001, 0.3] {
            let truncated = temporaryFile("truncated.avi")
            try full.prefix(Int(Double(full.count) * fraction)).write(to: URL(fileURLWithPath: truncated))
            do {
                let reader = try MovieReader(path: truncated)
                var frames = 0
                while try reader.nextFrame() != nil { frames += 1 }
                #expect(frames < 270)
            } catch {
                #expect(error is KameraError)
            }
        }
        for path in [empty, text, noise] { try? FileManager.default.removeItem(atPath: path) }
    }
}

@Suite(.tier(.media)) struct ThumbnailTests {
    /// A one-second clip of Megamind.avi carrying a rotation in its display matrix.
    func rotatedClip(_ degrees: Int) throws -> String {
        let plain = temporaryFile("plain.mp4"), rotated = temporaryFile("rot\(degrees).mp4")
        _ = try tool(
            "ffmpeg",
            [
                "-v", "error", "-y", "-i", try SampleMedia.url("Megamind.avi").path, "-t", "1", "-an",
                "-c:v", "libx264", "-pix_fmt", "yuv420p", plain,
            ])
        // FFmpeg 5.1 writes the rotate tag into the display matrix only when remuxing.
        _ = try tool("ffmpeg", ["-v", "error", "-y", "-i", plain, "-c", "copy", "-metadata:s:v:0", "rotate=\(degrees)", rotated])
        try? FileManager.default.removeItem(atPath: plain)
        return rotated
    }

    @Test(arguments: [0, 90, 180, 270])
    func rotationsMatchFFmpegAutorotate(degrees: Int) throws {
        let clip = try rotatedClip(degrees)
        defer { try? FileManager.default.removeItem(atPath: clip) }
        let reader = try MovieReader(path: clip)
        // FFmpeg 5.1 turns the tag into a matrix that rotates counter-clockwise by it
        // (ffprobe: rotation=90); MovieReader reports clockwise degrees, as players turn it.
        #expect(reader.rotation == (360 - degrees) % 360)
        // The seed's thumbnail: 100 wide, height from the aspect ratio of the upright image.
        let thumbnail = try ThumbnailGenerator(maximumSize: Size(width: 100, height: 0)).image(forVideoAt: clip)
        let uprightAspect = degrees % 180 == 0 ? 528.0 / 720.0 : 720.0 / 528.0
        #expect(thumbnail.width == 100 && thumbnail.height == Int((100 * uprightAspect).rounded()))
        // Same pixels as ffmpeg's own autorotated first frame.
        let reference = temporaryFile("ref.png")
        defer { try? FileManager.default.removeItem(atPath: reference) }
        _ = try tool("ffmpeg", ["-v", "error", "-y", "-i", clip, "-frames:v", "1", reference])
        let ffmpegFrame = try Image(contentsOf: URL(fileURLWithPath: reference)).pixelBuffer
        let full = try ThumbnailGenerator().image(forVideoAt: clip)
        #expect(full.width == ffmpegFrame.width && full.height == ffmpegFrame.height)
        let difference = zip(full.bytes, ffmpegFrame.converted(to: .rgb8).bytes).reduce(0) { $0 + abs(Int($1.0) - Int($1.1)) }
        #expect(Double(difference) / Double(full.bytes.count) < 6, "mean absolute difference")
        // Without the track transform the stored orientation comes back.
        let stored = try ThumbnailGenerator(appliesPreferredTrackTransform: false).image(forVideoAt: clip)
        #expect(stored.width == 720 && stored.height == 528)
    }

    @Test func timesAndSizes() throws {
        let path = try SampleMedia.url("vtest.avi").path
        let late = try ThumbnailGenerator(maximumSize: Size(width: 0, height: 120)).image(forVideoAt: path, at: 30)
        #expect(late.height == 120 && late.width == 160)
        let boxed = try ThumbnailGenerator(maximumSize: Size(width: 100, height: 100)).image(forVideoAt: path, at: 1)
        #expect(boxed.width == 100 && boxed.height == 75)
        #expect(throws: KameraError.self) { try ThumbnailGenerator().image(forVideoAt: path, at: 500) }
        #expect(throws: KameraError.self) { try ThumbnailGenerator().image(forVideoAt: path, at: -1) }
    }

    /// Widths that are no multiple of swscale's block (a 360-pixel portrait phone video, odd
    /// sizes): every frame decodes, with the pixels ffmpeg itself gives (the conversion once
    /// overran the frame's buffer on these and aborted the process).
    @Test(arguments: [(360, 640), (362, 200), (100, 60)])
    func framesOfAnyWidthDecodeWithinTheirBuffer(width: Int, height: Int) throws {
        let clip = temporaryFile("narrow.mp4"), reference = temporaryFile("narrow.png")
        defer { for path in [clip, reference] { try? FileManager.default.removeItem(atPath: path) } }
        _ = try tool(
            "ffmpeg",
            [
                "-v", "error", "-y", "-i", try SampleMedia.url("vtest.avi").path, "-t", "0.5", "-vf", "scale=\(width):\(height)",
                "-c:v", "libx264", "-pix_fmt", "yuv420p", clip,
            ])
        _ = try tool("ffmpeg", ["-v", "error", "-y", "-i", clip, "-frames:v", "1", reference])
        let reader = try MovieReader(path: clip)
        var frames: [PixelBuffer] = []
        while let frame = try reader.nextFrame() { frames.append(frame.pixelBuffer) }
        #expect(frames.count >= 5)
        let first = try #require(frames.first)
        #expect(first.width == width && first.height == height && first.bytes.count == width * height * 3)
        let expected = try Image(contentsOf: URL(fileURLWithPath: reference)).pixelBuffer.converted(to: .rgb8)
        let difference = zip(first.bytes, expected.bytes).reduce(0) { $0 + abs(Int($1.0) - Int($1.1)) }
        // (Chroma is upsampled bilinearly here, bicubically by ffmpeg: tiny frames differ most.)
        #expect(Double(difference) / Double(first.bytes.count) < 6, "mean absolute difference")
    }
}
