import ArgumentParser
import Foundation
import Kamera

/// Decodes every frame of a video to RGB (what `ffmpeg -i X -f null -` does, plus the RGB
/// conversion Kamera's callers get) and prints the count.
struct VideoReadCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "video-read", abstract: "Decode all frames of a video.")

    @Argument(help: "The video file.")
    var path: String

    func run() throws {
        let reader = try MovieReader(path: path)
        var frames = 0
        while try reader.nextFrame() != nil { frames += 1 }
        print(frames)
    }
}
