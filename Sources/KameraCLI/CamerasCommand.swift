import ArgumentParser
import Foundation
import Kamera
import KameraReports

/// `kamera cameras`: the V4L2 cameras and their capture formats, as JSON.
struct CamerasCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "cameras", abstract: "List V4L2 cameras and their formats as JSON.")

    func run() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let cameras = CameraDevice.discover().map { CameraRecord(path: $0.path, name: $0.name, formats: $0.formats) }
        try CommandFailure.run {
            try StandardStreams.outputLine(cameras.isEmpty ? "[]" : String(decoding: try encoder.encode(cameras), as: UTF8.self))
        }
    }

    struct CameraRecord: Encodable {
        var path: String
        var name: String
        var formats: [CameraDevice.Format]
    }
}
