import ArgumentParser
import Foundation
import Kamera

/// Times Kamera's barcode detection on every image of a dataset (decode excluded: each
/// image is read once, then detection runs `repeat` times and the median is kept).
struct BarcodesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "barcodes", abstract: "Time barcode detection on a dataset.")

    @Argument(help: "Dataset directory (with truth.json).")
    var directory: String

    @Option(help: "fast | balanced | thorough")
    var effort = "balanced"

    @Option(help: "Timed runs per image; the median is reported.")
    var `repeat` = 3

    struct Result: Codable {
        var file: String
        var milliseconds: Double
        var found: [Found]
    }

    struct Found: Codable {
        var symbology: String
        var text: String
    }

    func run() throws {
        guard let chosen = DetectBarcodesRequest.Effort(rawValue: effort) else { throw ValidationError("unknown effort") }
        let root = URL(fileURLWithPath: directory)
        let truths = try JSONDecoder().decode(
            [DatasetCommand.Truth].self, from: Data(contentsOf: root.appendingPathComponent("truth.json")))
        let request = DetectBarcodesRequest(effort: chosen)
        var results: [Result] = []
        for truth in truths {
            let image = try Image(contentsOf: root.appendingPathComponent(truth.file))
            var times: [Double] = []
            var found: [BarcodeObservation] = []
            for _ in 0..<max(1, self.repeat) {
                let start = DispatchTime.now().uptimeNanoseconds
                // A fresh context each run: grayscale conversion is part of the measured work.
                found = try request.perform(in: ImageAnalysisContext(image))
                times.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
            }
            results.append(
                Result(
                    file: truth.file, milliseconds: times.sorted()[times.count / 2],
                    found: found.map {
                        // An add-on's digits follow the main number, as zxing-cpp reports them.
                        Found(
                            symbology: $0.symbology.rawValue,
                            text: ($0.payloadString ?? $0.payloadData.base64EncodedString()) + ($0.supplementalPayloadString ?? ""))
                    }))
        }
        print(String(decoding: try JSONEncoder().encode(results), as: UTF8.self))
    }
}
