import ArgumentParser
import Foundation
import Kamera

/// `kamera models`: the models Kamera runs, where they are, and whether they verify.
struct ModelsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "models",
        abstract: "List the face models, their sizes and whether their SHA-256 matches the pin.",
        discussion: "Models are read from KAMERA_MODELS, else the models folder of the cache: $KAMERA_CACHE, $XDG_CACHE_HOME/kamera or ~/.cache/kamera. Exit code 1 when any is missing or does not verify."
    )

    @Flag(help: "Print JSON instead of a table.")
    var json = false

    func run() throws {
        try CommandFailure.run { try list() }
    }

    private func list() throws {
        let status = ModelStore.default.status()
        if json {
            try StandardStreams.outputLine(JSONValue.object([
                ("directory", .string(ModelStore.default.directory.path)),
                ("models", .array(status.map { entry in
                    .object([("file", .string(entry.model.fileName)), ("purpose", .string(entry.model.purpose)),
                             ("source", .string(entry.model.source)), ("size", entry.size.map { .int($0) } ?? .null),
                             ("verified", .bool(entry.verified)), ("path", .string(entry.path))])
                })),
            ]).rendered())
        } else {
            try StandardStreams.outputLine("models in \(ModelStore.default.directory.path)")
            for entry in status {
                let state = entry.size == nil ? "missing" : (entry.verified ? "ok" : "CORRUPT")
                let size = entry.size.map { String(format: "%.2f MB", Double($0) / 1_000_000) } ?? "-"
                try StandardStreams.outputLine([entry.model.fileName.padding(toLength: 36, withPad: " ", startingAt: 0),
                       size.padding(toLength: 10, withPad: " ", startingAt: 0),
                       state.padding(toLength: 8, withPad: " ", startingAt: 0),
                       entry.model.source.padding(toLength: 28, withPad: " ", startingAt: 0),
                       entry.model.purpose].joined(separator: " "))
            }
        }
        if status.contains(where: { !$0.verified }) {
            StandardStreams.error("kamera: \(ModelStore.installHint)\n")
            throw ExitCode(1)
        }
    }
}
