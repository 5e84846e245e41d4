import ArgumentParser
import Foundation
import Kamera
import KameraReports

/// `kamera thumbnail`: a still from a video, like AVAssetImageGenerator.
struct ThumbnailCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "thumbnail",
        abstract: "Write a still image from a video (PNG, JPEG or WebP by the output's extension).")

    @Argument(help: "The video file; - reads it from standard input.")
    var video: String

    @Option(name: .shortAndLong, help: "Output image file; - writes PNG to standard output.")
    var output: String

    @Option(name: .long, help: "Maximum WIDTHxHEIGHT; 0 follows from the aspect ratio (100x0: 100 pixels wide). Never enlarges.")
    var maxSize = "0x0"

    @Option(name: .long, parsing: .unconditional, help: "Time in seconds.")
    var at = 0.0

    @Flag(name: .long, help: "Ignore the track's rotation metadata.")
    var ignoreRotation = false

    @Flag(name: .long, help: "Take the key frame before the time instead of decoding up to it (faster).")
    var tolerant = false

    @OptionGroup var overwrite: OverwriteOptions

    func validate() throws {
        _ = try bound()
        guard at.isFinite, at >= 0 else { throw ValidationError("--at must be a time in seconds, 0 or more") }
        if output != "-", ImageFileFormat(pathExtension: URL(fileURLWithPath: output).pathExtension) == nil {
            throw ValidationError("--output must end in .png, .jpg or .webp (or be - for PNG on standard output)")
        }
    }

    private func bound() throws -> Size {
        let parts = maxSize.lowercased().split(separator: "x", omittingEmptySubsequences: false).map { Int($0) }
        guard parts.count == 2, let width = parts[0], let height = parts[1], (0...16384).contains(width), (0...16384).contains(height)
        else {
            throw ValidationError("--max-size must be WIDTHxHEIGHT with each 0…16384, e.g. 100x0")
        }
        return Size(width: Double(width), height: Double(height))
    }

    func run() throws {
        let generator = ThumbnailGenerator(maximumSize: try bound(), appliesPreferredTrackTransform: !ignoreRotation, exactTime: !tolerant)
        try CommandFailure.run {
            try overwrite.check(output)
            let image = try VideoInput.withSeekablePath(video) { try generator.image(forVideoAt: $0, at: at) }
            if output == "-" {
                try StandardStreams.output(bytes: [UInt8](try ImageEncoder.encode(image, as: .png)))
            } else {
                try ImageEncoder.write(image, to: URL(fileURLWithPath: output))
                try StandardStreams.outputLine("wrote \(output) (\(image.width)×\(image.height) px, t=\(at) s)")
            }
        }
    }
}
