import Foundation

/// Runs a model through LiteRT (`ai-edge-litert`, installed by scripts/test.sh into its own
/// venv) on the same input, so KameraNN's outputs are compared with the reference runtime
/// in the test itself rather than with recorded blobs.
enum LiteRTReference {
    enum Failure: Error, CustomStringConvertible {
        case unavailable(String)
        case failed(String)
        var description: String {
            switch self {
            case .unavailable(let s): "LiteRT reference unavailable: \(s) (run the tests with `bash scripts/test.sh`)"
            case .failed(let s): "LiteRT run failed: \(s)"
            }
        }
    }

    static var python: String? { venvPython(variable: "KAMERA_LITERT_PYTHON", venv: "litert-venv") }

    /// The Python that `variable` names, or the one in `venv` under the cache that
    /// scripts/test.sh installs; nil when neither exists.
    static func venvPython(variable: String, venv: String) -> String? {
        let env = ProcessInfo.processInfo.environment
        if let python = env[variable] { return python }
        let cache = env["KAMERA_CACHE"] ?? (NSHomeDirectory() + "/.cache/kamera")
        let python = cache + "/\(venv)/bin/python"
        return FileManager.default.isExecutableFile(atPath: python) ? python : nil
    }

    private static let script = """
        import sys, numpy as np
        from ai_edge_litert.interpreter import Interpreter
        model, inp, out = sys.argv[1:4]
        it = Interpreter(model_path=model, num_threads=1)
        it.allocate_tensors()
        d = it.get_input_details()[0]
        it.set_tensor(d['index'], np.fromfile(inp, dtype=np.float32).reshape(d['shape']))
        it.invoke()
        with open(out, 'wb') as f:
            for o in it.get_output_details():
                f.write(it.get_tensor(o['index']).astype(np.float32).tobytes())
        """

    /// Every output of `model` on `input`, concatenated in output order.
    static func run(model: String, input: [Float]) throws -> [Float] {
        guard let python else { throw Failure.unavailable("no KAMERA_LITERT_PYTHON and no venv in the cache") }
        return try runScript(python: python, script: script, model: model, input: input, extra: [])
    }

    /// Runs `script` with arguments MODEL IN OUT and `extra`, `input` written to IN as raw
    /// floats; returns the floats the script wrote to OUT. (Shared by the ONNX Runtime reference.)
    static func runScript(python: String, script: String, model: String, input: [Float], extra: [String]) throws -> [Float] {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("reference-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let inputURL = dir.appendingPathComponent("in.f32"), outputURL = dir.appendingPathComponent("out.f32")
        try input.withUnsafeBufferPointer { try Data(buffer: $0).write(to: inputURL) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = ["-c", script, model, inputURL.path, outputURL.path] + extra
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        let message = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw Failure.failed(String(decoding: message, as: UTF8.self).suffix(600).description)
        }
        let data = try Data(contentsOf: outputURL)
        return data.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
    }
}
