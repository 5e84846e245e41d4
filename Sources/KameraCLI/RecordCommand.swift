import ArgumentParser
import Dispatch
import Foundation
import Kamera
import KameraReports

/// `kamera record`: a fragmented, crash-safe H.264 movie from a camera, the test pattern or a
/// video file, with AVCaptureFileOutput's limits.
struct RecordCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "record",
        abstract: "Record a crash-safe (fragmented) H.264 movie from a camera, the test pattern or a video file.",
        discussion:
            "Prints progress on stderr and a JSON summary (path, duration, frames, bytes, stopReason) on stdout. Ctrl-C finishes the file cleanly."
    )

    @Option(name: .long, help: "A V4L2 camera, e.g. /dev/video0.")
    var camera: String?

    @Flag(name: .long, help: "Record the built-in test pattern.")
    var testPattern = false

    @Argument(help: "A video file to re-record; - reads the stream from standard input.")
    var input: String?

    @Option(name: .shortAndLong, help: "Output .mov, .mp4 or .m4v (default: a new temp folder kamera.XXXXXX/kamera_movie.mov).")
    var output: String?

    @Option(name: .long, parsing: .unconditional, help: "Stop after this many seconds.")
    var duration: Double?

    @Option(name: .long, parsing: .unconditional, help: "Stop before the file exceeds this many bytes.")
    var maxSize: Int64?

    @Option(name: .long, parsing: .unconditional, help: "Stop when the disk has fewer free bytes than this.")
    var minFreeDisk: Int64?

    @Option(
        name: .long, parsing: .unconditional, help: "Seconds per fragment; a crash loses at most one. 0: a plain, non-fragmented movie.")
    var fragmentInterval = 1.0

    @Option(name: .long, parsing: .unconditional, help: "Clockwise rotation metadata: 0, 90, 180 or 270.")
    var rotation = 0

    @Option(name: .long, help: "Test pattern size WIDTHxHEIGHT.")
    var size = "1280x720"

    @Option(name: .long, parsing: .unconditional, help: "Test pattern frames per second.")
    var fps = 30.0

    @Flag(name: .long, help: "Pace the test pattern or file at real time instead of as fast as possible.")
    var realtime = false

    @Option(
        name: .long,
        help: "Steady the picture as it is recorded: standard, cinematic, cinematic-extended or auto (frames run 0.5 s behind).")
    var stabilize: VideoStabilizationMode?

    @Option(name: .long, help: "x264 preset (ultrafast … veryslow).")
    var preset = "veryfast"

    @OptionGroup(title: "Camera settings") var cameraSettings: CameraArguments

    @OptionGroup var overwrite: OverwriteOptions

    static let presets = ["ultrafast", "superfast", "veryfast", "faster", "fast", "medium", "slow", "slower", "veryslow", "placebo"]

    func validate() throws {
        let sources = (camera != nil ? 1 : 0) + (testPattern ? 1 : 0) + (input != nil ? 1 : 0)
        guard sources == 1 else { throw ValidationError("give exactly one source: --camera DEVICE, --test-pattern or INPUT") }
        if testPattern && duration == nil && maxSize == nil && !realtime {
            throw ValidationError("the test pattern never ends: give --duration or --max-size (or --realtime and Ctrl-C)")
        }
        if output == "-" { throw ValidationError("cannot record to standard output: give -o FILE.mp4") }
        try cameraSettings.requireCamera(camera)
        if let output { try CommandFailure.validating { try MovieRecorder.validateContainer(of: URL(fileURLWithPath: output)) } }
        guard Self.presets.contains(preset) else {
            throw ValidationError("--preset must be one of \(Self.presets.joined(separator: ", "))")
        }
        let pattern = try patternSize()
        // The same checks the recorder makes, before any file is touched.
        try CommandFailure.validating {
            try RecordingSettings(
                width: testPattern ? pattern.width & ~1 : 2, height: testPattern ? pattern.height & ~1 : 2,
                frameRate: testPattern ? fps : 30, fragmentInterval: fragmentInterval, maximumDuration: duration,
                maximumFileSize: maxSize, minimumFreeDiskSpace: minFreeDisk, rotation: rotation
            ).validate()
        }
    }

    private func patternSize() throws -> (width: Int, height: Int) {
        let parts = size.lowercased().split(separator: "x").compactMap { Int($0) }
        guard parts.count == 2, (2...16384).contains(parts[0]), (2...16384).contains(parts[1]) else {
            throw ValidationError("--size must be WIDTHxHEIGHT, 2…16384 each, e.g. 1280x720")
        }
        return (parts[0], parts[1])
    }

    func run() throws {
        // Ctrl-C and SIGTERM finish the movie instead of killing it mid-write.
        let interrupt = InterruptFlag()
        try CommandFailure.run {
            if let output { try overwrite.check(output) }
            let summary = try record(until: interrupt)
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            StandardStreams.endProgress()
            try StandardStreams.outputLine(String(decoding: try encoder.encode(summary), as: UTF8.self))
        }
    }

    private func record(until interrupt: InterruptFlag) throws -> RecordingSummary {
        let opened = try camera.map { try cameraSettings.open(camera: $0) }
        defer { opened?.device?.unlockForConfiguration() }
        var next: () throws -> VideoFrame?
        var width: Int, height: Int, rate: Double
        var pace = realtime
        if testPattern {
            let parts = try patternSize()
            let pattern = TestPatternSource(width: parts.width, height: parts.height, frameRate: fps)
            var index = 0
            next = {
                defer { index += 1 }
                return pattern.frame(index)
            }
            (width, height, rate) = (parts.width, parts.height, fps)
        } else {
            let reader = try opened?.reader ?? MovieReader(path: VideoInput.streamed(input!))
            next = { try reader.nextFrame() }
            (width, height, rate) = (reader.width, reader.height, reader.frameRate ?? 30)
            if camera != nil { pace = false }  // a camera delivers in real time by itself
        }
        let evenWidth = width & ~1, evenHeight = height & ~1
        let settings = RecordingSettings(
            width: evenWidth, height: evenHeight, frameRate: rate, fragmentInterval: fragmentInterval,
            maximumDuration: duration, maximumFileSize: maxSize, minimumFreeDiskSpace: minFreeDisk,
            rotation: rotation, preset: preset)
        let recorder = try MovieRecorder(url: output.map { URL(fileURLWithPath: $0) }, settings: settings)
        let started = Date()
        var lastReport = -1.0
        // Live stabilization holds frames back by its latency; they are written as they leave it.
        var stabilizer = try stabilize.map { try LiveVideoStabilizer(mode: $0, frameRate: rate, latency: 0.5) }
        func write(_ image: PixelBuffer, at time: Double) throws -> Bool {
            guard try recorder.append(image, at: time) else { return false }
            if recorder.recordedDuration - lastReport >= 1 {
                lastReport = recorder.recordedDuration
                let megabytes = Double(recorder.recordedFileSize) / 1_000_000
                StandardStreams.progress(
                    String(
                        format: "recording %.1f s, %d frames, %.2f MB", recorder.recordedDuration,
                        recorder.recordedFrames, megabytes))
            }
            return true
        }
        recording: while !interrupt.isRaised, let frame = try next() {
            let image = frame.pixelBuffer.croppedToEven(width: evenWidth, height: evenHeight)
            if pace {
                let wait = frame.time - Date().timeIntervalSince(started)
                if wait > 0 { Thread.sleep(forTimeInterval: wait) }
            }
            guard stabilizer != nil else {
                guard try write(image, at: frame.time) else { break }
                continue
            }
            for steadied in try stabilizer!.push(image, at: frame.time) {
                guard try write(steadied.pixelBuffer, at: steadied.time) else { break recording }
            }
        }
        if stabilizer != nil {
            for steadied in try stabilizer!.finish() {
                guard try write(steadied.pixelBuffer, at: steadied.time) else { break }
            }
        }
        return try recorder.finish()
    }
}
