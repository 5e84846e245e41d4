import Foundation

/// Runs an ONNX model through ONNX Runtime (`onnxruntime`, pinned, installed by
/// scripts/test.sh into the reference venv) on the same NCHW input, so KameraNN's outputs are
/// compared with the reference runtime in the test itself.
enum ONNXRuntimeReference {
    static var python: String? {
        let env = ProcessInfo.processInfo.environment
        if let python = env["KAMERA_ONNXRUNTIME_PYTHON"] ?? env["KAMERA_LITERT_PYTHON"] { return python }
        let python = (env["KAMERA_CACHE"] ?? (NSHomeDirectory() + "/.cache/kamera")) + "/litert-venv/bin/python"
        return FileManager.default.isExecutableFile(atPath: python) ? python : nil
    }

    private static let script = """
        import sys, numpy as np, onnxruntime as ort
        model, inp, out, n, c, h, w = sys.argv[1:8]
        options = ort.SessionOptions()
        options.intra_op_num_threads = 1
        s = ort.InferenceSession(model, options, providers=['CPUExecutionProvider'])
        x = np.fromfile(inp, dtype=np.float32).reshape(int(n), int(c), int(h), int(w))
        with open(out, 'wb') as f:
            for o in s.run(None, {s.get_inputs()[0].name: x}):
                f.write(o.astype(np.float32).tobytes())
        """

    /// Every output of `model` on the NCHW `input` of `shape`, concatenated in output order.
    static func run(model: String, input: [Float], shape: [Int]) throws -> [Float] {
        guard let python else { throw LiteRTReference.Failure.unavailable("no Python with onnxruntime") }
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("onnxruntime-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let inputURL = dir.appendingPathComponent("in.f32"), outputURL = dir.appendingPathComponent("out.f32")
        try input.withUnsafeBufferPointer { try Data(buffer: $0).write(to: inputURL) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = ["-c", script, model, inputURL.path, outputURL.path] + shape.map(String.init)
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        let message = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw LiteRTReference.Failure.failed(String(decoding: message, as: UTF8.self).suffix(600).description)
        }
        let data = try Data(contentsOf: outputURL)
        return data.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
    }
}
