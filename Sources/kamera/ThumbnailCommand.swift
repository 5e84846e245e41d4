import ArgumentParser
import Foundation
import Kamera

/// `kamera thumbnail`: a still from a video, like AVAssetImageGenerator.
struct ThumbnailCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "thumbnail",
        abstract: "Write a still image from a video (PNG, JPEG or WebP by the output's extension).")

    @Argument(help: "The video file.")
    var video: String

    @Option(name: .shortAndLong, help: "Output image file.")
    var output: String

    @Option(name: .long, help: "Maximum WIDTHxHEIGHT; 0 follows from the aspect ratio (100x0: 100 pixels wide).")
    var maxSize = "0x0"

    @Option(name: .long, help: "Time in seconds.")
    var at = 0.0

    @Flag(name: .long, help: "Ignore the track's rotation metadata.")
    var ignoreRotation = false

    @Flag(name: .long, help: "Take the key frame before the time instead of decoding up to it (faster).")
    var tolerant = false

    func run() throws {
        let parts = maxSize.lowercased().split(separator: "x").map { Double($0) }
        guard parts.count == 2, let width = parts[0], let height = parts[1], width >= 0, height >= 0 else {
            throw ValidationError("--max-size must be WIDTHxHEIGHT, e.g. 100x0")
        }
        let generator = ThumbnailGenerator(maximumSize: Size(width: width, height: height),
                                           appliesPreferredTrackTransform: !ignoreRotation, exactTime: !tolerant)
        do {
            let image = try generator.image(forVideoAt: video, at: at)
            try ImageEncoder.write(image, to: URL(fileURLWithPath: output))
            print("wrote \(output) (\(image.width)×\(image.height) px, t=\(at) s)")
        } catch let error as KameraError {
            FileHandle.standardError.write(Data("kamera: \(error.reason) (\(error.hint))\n".utf8))
            throw ExitCode(1)
        }
    }
}
