import ArgumentParser
import Foundation
import Kamera
import KameraReports

/// `kamera models`: the models Kamera runs, where they are, and whether they verify.
struct ModelsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "models",
        abstract: "List the face models, their sizes and whether their SHA-256 matches the pin.",
        discussion:
            "Models are read from KAMERA_MODELS, else the models folder of the cache: $KAMERA_CACHE, $XDG_CACHE_HOME/kamera or ~/.cache/kamera. Exit code 1 when any is missing or does not verify."
    )

    @Flag(help: "Print JSON instead of a table.")
    var json = false

    func run() throws {
        try CommandFailure.run { try list() }
    }

    private func list() throws {
        let status = ModelStore.default.status()
        if json {
            let records = status.map {
                ModelRecord(
                    file: $0.model.fileName, purpose: $0.model.purpose, source: $0.model.source, size: $0.size,
                    verified: $0.verified, path: $0.path)
            }
            try StandardStreams.outputLine(
                try JSONValueEncoder.encode(
                    ModelListRecord(directory: ModelStore.default.directory.path, models: records)
                ).rendered())
        } else {
            try StandardStreams.outputLine("models in \(ModelStore.default.directory.path)")
            for entry in status {
                let state = entry.size == nil ? "missing" : (entry.verified ? "ok" : "CORRUPT")
                let size = entry.size.map { String(format: "%.2f MB", Double($0) / 1_000_000) } ?? "-"
                try StandardStreams.outputLine(
                    [
                        entry.model.fileName.padding(toLength: 36, withPad: " ", startingAt: 0),
                        size.padding(toLength: 10, withPad: " ", startingAt: 0),
                        state.padding(toLength: 8, withPad: " ", startingAt: 0),
                        entry.model.source.padding(toLength: 28, withPad: " ", startingAt: 0),
                        entry.model.purpose,
                    ].joined(separator: " "))
            }
        }
        if status.contains(where: { !$0.verified }) {
            StandardStreams.error("kamera: \(ModelStore.installHint)\n")
            throw ExitCode(1)
        }
    }
}

/// `kamera models --json`: the model folder and each model's state.
struct ModelListRecord: Encodable {
    var directory: String
    var models: [ModelRecord]
}

/// One model file as `kamera models --json` lists it; `size` is null when it is missing.
struct ModelRecord: Encodable {
    var file: String
    var purpose: String
    var source: String
    @Nullable var size: Int?
    var verified: Bool
    var path: String
}
