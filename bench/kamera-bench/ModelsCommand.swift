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

    func run() throws {
        for model in KameraModel.allCases {
            let network = try ModelStore.default.network(model)
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
                for (kernel, ms) in session.profile() {
                    FileHandle.standardError.write(Data("  \(model.fileName) \(kernel): \(ms) ms\n".utf8))
                }
            }
            print(#"{"model":"\#(model.fileName)","median_ms":\#(times[times.count / 2]),"p10_ms":\#(times[times.count / 10])}"#)
        }
    }
}
