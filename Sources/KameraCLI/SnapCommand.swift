import ArgumentParser
import Foundation
import Kamera
import KameraReports

/// `kamera snap`: one full-resolution photo from a camera (or a frame of a video standing in
/// for one), as AVCapturePhotoOutput takes it: a JPEG with EXIF orientation and time taken.
struct SnapCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "snap",
        abstract: "Take a full-resolution photo from a camera (or a video's frame) as a JPEG with EXIF orientation and time.",
        discussion: """
            From a camera, the largest size it offers is opened (--session-preset picks another) and the first \
            --warm-up frames are let go so that automatic exposure and white balance settle. The pixels are stored as \
            captured; EXIF Orientation says how to show them (from --rotation, else the video's rotation), with \
            DateTimeOriginal, its milliseconds and time-zone offset. Prints a JSON summary.
            """)

    @Argument(help: "A video standing in for a camera (without --camera).")
    var input: String?

    @Option(name: .long, help: "A V4L2 camera, e.g. /dev/video0.")
    var camera: String?

    @Option(name: [.short, .long], help: "Where to write the photo (.jpg).")
    var output: String

    @Option(name: .long, parsing: .unconditional, help: "The video's time to take (seconds; a video only).")
    var at: Double = 0

    @Option(name: .long, help: "Frames to let go first (a camera settling its exposure).")
    var warmUp = 10

    @Option(name: .long, parsing: .unconditional, help: "How the camera is mounted, clockwise: 0, 90, 180 or 270.")
    var rotation: Int?

    @Option(name: .long, help: "JPEG quality 1…100.")
    var quality = 92

    @OptionGroup(title: "Camera settings") var cameraSettings: CameraArguments

    @OptionGroup var overwrite: OverwriteOptions

    func validate() throws {
        guard (input == nil) != (camera == nil) else { throw ValidationError("give exactly one source: INPUT or --camera DEVICE") }
        guard ["jpg", "jpeg"].contains(URL(fileURLWithPath: output).pathExtension.lowercased()) else {
            throw ValidationError("a photo is written as .jpg, not \(output)")
        }
        guard at.isFinite, at >= 0 else { throw ValidationError("--at is a time in seconds ≥ 0, not \(at)") }
        guard (0...1000).contains(warmUp) else { throw ValidationError("--warm-up is 0…1000 frames, not \(warmUp)") }
        guard (1...100).contains(quality) else { throw ValidationError("--quality is 1…100, not \(quality)") }
        if let rotation, PhotoMetadata.orientation(forClockwiseRotation: rotation) == nil {
            throw ValidationError("--rotation is 0, 90, 180 or 270, not \(rotation)")
        }
        try cameraSettings.requireCamera(camera)
    }

    struct Summary: Encodable {
        var path: String
        var width: Int
        var height: Int
        var orientation: Int
        var taken: String
        var bytes: Int
    }

    func run() throws {
        try overwrite.runUntilInterrupted(writing: [output]) { _ in
            let (frame, videoRotation) = try take()
            let metadata = PhotoMetadata(
                orientation: PhotoMetadata.orientation(forClockwiseRotation: rotation ?? videoRotation) ?? .up, dateTaken: Date())
            let data = try ImageEncoder.encodePhoto(frame, quality: quality, metadata: metadata)
            do {
                try data.write(to: URL(fileURLWithPath: output), options: .atomic)
            } catch {
                throw KameraError.writeFailed(path: output, reason: (error as NSError).localizedDescription)
            }
            let summary = Summary(
                path: output, width: frame.width, height: frame.height, orientation: metadata.orientation.rawValue,
                taken: ISO8601DateFormatter().string(from: metadata.dateTaken), bytes: data.count)
            try StandardStreams.outputLine(try JSONValueEncoder.encode(summary).compact())
        }
    }

    /// The frame to keep and the source's rotation.
    private func take() throws -> (PixelBuffer, Int) {
        if let camera {
            // Stills are full resolution unless another size is asked for; a node whose sizes
            // cannot be read is left to the reader, whose error says the camera cannot be opened.
            var settings = cameraSettings
            if settings.sessionPreset == nil, CameraDevice(queryingDeviceAt: camera)?.formats.isEmpty == false {
                settings.sessionPreset = .high
            }
            let opened = try settings.open(camera: camera)
            defer { opened.device?.unlockForConfiguration() }
            var frame: VideoFrame?
            for _ in 0...warmUp {
                guard let next = try opened.reader.nextFrame() else { break }
                frame = next
            }
            guard let frame else { throw KameraError.corruptMedia(path: camera, reason: "the camera delivered no frame") }
            return (frame.pixelBuffer, 0)
        }
        let reader = try MovieReader(path: input!)
        if at > 0 { try reader.seek(to: at) }
        guard let frame = try reader.nextFrame() else {
            throw KameraError.corruptMedia(path: input, reason: "no frame at \(at) s")
        }
        return (frame.pixelBuffer, reader.rotation)
    }
}
