import ArgumentParser
import Foundation
import Kamera

/// Times raw model invokes (input already in place, no pre/post-processing) for each face
/// model, one thread unless told otherwise; prints one JSON line per model with the median.
struct ModelsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "models", abstract: "Time raw KameraNN invokes per model.")

    @Option(help: "Invokes per model (after warm-up).")
    var runs = 200

    @Option(help: "Threads per session.")
    var threads = 1

    @Flag(help: "Print time per kernel kind to stderr.")
    var profile = false

    @Flag(help: "With --profile, time each step rather than each kind of kernel.")
    var bySteps = false

    @Option(help: "Only the full-range face detector, compiled for this WIDTHxHEIGHT input (the whole-image scan).")
    var detectorInput: String?

    @Option(help: "Only the ONNX models' image layers (the text detector and recognizer), compiled for this WIDTHxHEIGHT input.")
    var onnxInput: String?

    func run() throws {
        var models = KameraModel.allCases.filter { !$0.isONNX }
        var size: (width: Int, height: Int)?
        if let onnxInput {
            let parts = onnxInput.split(separator: "x").compactMap { Int($0) }
            guard parts.count == 2 else { throw ValidationError("--onnx-input takes WIDTHxHEIGHT") }
            size = (parts[0], parts[1])
            models = KameraModel.allCases.filter(\.isONNX)
        }
        if let detectorInput {
            let parts = detectorInput.split(separator: "x").compactMap { Int($0) }
            guard parts.count == 2 else { throw ValidationError("--detector-input takes WIDTHxHEIGHT") }
            size = (parts[0], parts[1])
            models = [.faceDetectionFullRange]
        }
        for model in models {
            var network: NeuralNetwork
            if model.isONNX, let size {
                // The recognizer reads 48-pixel-high lines whatever the detector's size.
                let height = model == .textRecognition ? 48 : size.height
                // The image layers only (the recognizer's sequence layers run outside KameraNN).
                network = try ModelStore.default.onnxNetwork(model).program(height: height, width: size.width).network
            } else {
                network = try ModelStore.default.network(model)
                if let size { network = try network.resized(height: size.height, width: size.width) }
            }
            time(network, label: model.fileName)
            if model == .poseLandmarkFull, size == nil {
                // As the body pose runs it: without the person mask (the pinned file's third
                // output), which it does not read. LiteRT has no such option: the report
                // compares this line with LiteRT's whole model.
                time(try network.keepingOutputs([0, 1, 3, 4]), label: model.fileName + " without its mask")
            }
        }
    }

    /// Times `runs` invokes of `network` and prints its JSON line.
    private func time(_ network: NeuralNetwork, label: String) {
        let session = network.makeSession(threads: threads)
        session.withInput { buffer in for i in buffer.indices { buffer[i] = Float(i % 255) / 255 } }
        for _ in 0..<20 { session.invoke() }
        var times: [Double] = []
        for _ in 0..<runs {
            let start = DispatchTime.now().uptimeNanoseconds
            session.invoke()
            times.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
        }
        times.sort()
        if profile {
            for (kernel, ms) in session.profile(bySteps: bySteps) {
                FileHandle.standardError.write(Data("  \(label) \(kernel): \(ms) ms\n".utf8))
            }
        }
        print(
            #"{"model":"\#(label)","input":\#(network.inputShapes[0]),"median_ms":\#(times[times.count / 2]),"p10_ms":\#(times[times.count / 10])}"#
        )
    }
}
