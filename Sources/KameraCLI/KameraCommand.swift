import ArgumentParser
import Kamera

/// The `kamera` command-line tool.
@main
struct KameraCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "kamera",
        abstract: "Apple's camera-vision stack for Linux: faces, barcodes and text in images; recording and thumbnails.",
        version: "0.1.0",
        subcommands: [
            DetectCommand.self, GenerateCommand.self, RecordCommand.self, ThumbnailCommand.self, CamerasCommand.self, ModelsCommand.self,
            ScanCommand.self, SymbologiesCommand.self, DocumentCommand.self, RegisterCommand.self, TrackCommand.self,
            ServeCommand.self, RedactCommand.self,
        ]
    )
}
