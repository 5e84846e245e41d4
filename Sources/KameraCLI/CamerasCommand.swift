import ArgumentParser
import Foundation
import Kamera
import KameraReports

/// `kamera cameras`: the V4L2 cameras, their capture formats and controls, as JSON.
struct CamerasCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cameras",
        abstract: "List V4L2 cameras: formats, controls with ranges and current values, and what they support, as JSON.")

    func run() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let cameras = CameraDevice.discover().map { camera in
            CameraRecord(camera, controls: camera.formats.isEmpty ? nil : (try? CaptureDevice(camera))?.controls)
        }
        try CommandFailure.run {
            try StandardStreams.outputLine(cameras.isEmpty ? "[]" : String(decoding: try encoder.encode(cameras), as: UTF8.self))
        }
    }

    /// One camera as `kamera cameras` prints it.
    struct CameraRecord: Encodable {
        var path: String
        var name: String
        var formats: [CameraDevice.Format]
        var controls: [CameraControl]
        var supports: CaptureDevice.Support?

        init(_ camera: CameraDevice, controls: CaptureDeviceControls?) {
            path = camera.path
            name = camera.name
            formats = camera.formats
            self.controls = controls?.controls ?? []
            supports = controls.map(CaptureDevice.Support.init)
        }
    }
}
