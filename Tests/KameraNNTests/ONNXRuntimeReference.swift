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
        return try LiteRTReference.runScript(python: python, script: script, model: model, input: input, extra: shape.map(String.init))
    }
}
