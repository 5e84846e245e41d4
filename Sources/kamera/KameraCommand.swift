import ArgumentParser
import Kamera

/// The `kamera` command-line tool.
@main
struct KameraCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "kamera",
        abstract: "Apple's camera-vision stack for Linux: detect and generate barcodes in images.",
        version: "0.1.0",
        subcommands: [DetectCommand.self, GenerateCommand.self, RecordCommand.self, ThumbnailCommand.self, CamerasCommand.self, DemoCommand.self, SymbologiesCommand.self]
    )
}
