import ArgumentParser
import Foundation
import Kamera
import KameraReports

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
            ServeCommand.self, RedactCommand.self, StabilizeCommand.self, SnapCommand.self,
        ]
    )

    /// Runs the command line; `kamera serve` first takes its settings from `KAMERA_…`
    /// environment variables (`ServeEnvironment`) where the command line gives none.
    static func main() async {
        var arguments = Array(CommandLine.arguments.dropFirst())
        if arguments.first == ServeCommand.configuration.commandName {
            do {
                let given = Array(arguments.dropFirst())
                arguments =
                    ["serve"] + (try ServeEnvironment.arguments(before: given, environment: ProcessInfo.processInfo.environment)) + given
            } catch {
                StandardStreams.error("kamera serve: error: \(error)\n")
                Foundation.exit(ExitCode.validationFailure.rawValue)
            }
        }
        await main(arguments)
    }
}
