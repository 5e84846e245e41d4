import Foundation
import KameraTestTiers
import Testing

@testable import KameraNN

/// Each ONNX operator (and fused pattern) KameraNN's importer takes, in a one-node (or
/// few-node) model built with the `onnx` package and random weights, run by KameraNN and by
/// ONNX Runtime on the same random input: outputs equal within 1e-4. Whole models are compared
/// in `ONNXModelTests`.
@Suite("ONNX operators: KameraNN against ONNX Runtime", .tier(.models))
struct ONNXOperatorTests {
    /// A model: its nodes (op, inputs, outputs, attributes), constant inputs by shape, and the
    /// image input's NCHW shape. The graph's input is "x", its output "y".
    struct Case: Sendable, CustomStringConvertible, Encodable {
        struct Node: Sendable, Encodable {
            var op: String
            var inputs: [String]
            var outputs: [String]
            var attributes: [String: [Double]] = [:]
        }
        var name: String
        var nodes: [Node]
        /// Random constants (uniform −1…1, or 0.5…1.5 for names ending in "var") by shape.
        var constants: [String: [Int]] = [:]
        /// Fixed constants (values, shape).
        var fixed: [String: [Double]] = [:]
        var input: [Int]
        var description: String { name }
    }

    static func node(_ op: String, _ inputs: [String], _ output: String = "y", _ attributes: [String: [Double]] = [:]) -> Case.Node {
        Case.Node(op: op, inputs: inputs, outputs: [output], attributes: attributes)
    }

    static let cases: [Case] = [
        Case(
            name: "Conv 3×3, pads 1, bias", nodes: [node("Conv", ["x", "w", "b"], "y", ["pads": [1, 1, 1, 1]])],
            constants: ["w": [8, 5, 3, 3], "b": [8]], input: [1, 5, 9, 11]),
        Case(
            name: "Conv 3×3 stride 2 (ONNX pads the top, TFLite's SAME does not)",
            nodes: [node("Conv", ["x", "w", "b"], "y", ["pads": [1, 1, 1, 1], "strides": [2, 2]])],
            constants: ["w": [6, 4, 3, 3], "b": [6]], input: [1, 4, 10, 12]),
        Case(
            name: "Conv depthwise 5×5", nodes: [node("Conv", ["x", "w", "b"], "y", ["pads": [2, 2, 2, 2], "group": [6]])],
            constants: ["w": [6, 1, 5, 5], "b": [6]], input: [1, 6, 8, 9]),
        Case(name: "Conv 1×1", nodes: [node("Conv", ["x", "w", "b"])], constants: ["w": [20, 7, 1, 1], "b": [20]], input: [1, 7, 6, 5]),
        Case(
            name: "Conv dilated 2", nodes: [node("Conv", ["x", "w", "b"], "y", ["pads": [2, 2, 2, 2], "dilations": [2, 2]])],
            constants: ["w": [4, 3, 3, 3], "b": [4]], input: [1, 3, 9, 9]),
        Case(
            name: "ConvTranspose 2×2 stride 2", nodes: [node("ConvTranspose", ["x", "w", "b"], "y", ["strides": [2, 2]])],
            constants: ["w": [4, 3, 2, 2], "b": [3]], input: [1, 4, 5, 6]),
        Case(
            name: "ConvTranspose, BatchNormalization (folded), Relu (fused), as PP-OCR's detector head",
            nodes: [
                node("ConvTranspose", ["x", "w", "b"], "t", ["strides": [2, 2]]),
                node("BatchNormalization", ["t", "g", "beta", "m", "var"], "n"),
                node("Relu", ["n"]),
            ],
            constants: ["w": [4, 6, 2, 2], "b": [6], "g": [6], "beta": [6], "m": [6], "var": [6]], input: [1, 4, 5, 6]),
        Case(
            name: "Conv then BatchNormalization (folded)",
            nodes: [
                node("Conv", ["x", "w", "b"], "c", ["pads": [1, 1, 1, 1]]), node("BatchNormalization", ["c", "g", "beta", "m", "var"]),
            ],
            constants: ["w": [5, 3, 3, 3], "b": [5], "g": [5], "beta": [5], "m": [5], "var": [5]], input: [1, 3, 7, 6]),
        Case(
            name: "BatchNormalization alone", nodes: [node("BatchNormalization", ["x", "g", "beta", "m", "var"])],
            constants: ["g": [5], "beta": [5], "m": [5], "var": [5]], input: [1, 5, 4, 6]),
        Case(
            name: "Mul, Add by per-channel constants, Clip 0…6",
            nodes: [node("Mul", ["x", "s"], "a"), node("Add", ["a", "t"], "c"), node("Clip", ["c", "lo", "hi"])],
            constants: ["s": [1, 5, 1, 1], "t": [1, 5, 1, 1]], fixed: ["lo": [0], "hi": [6]], input: [1, 5, 4, 6]),
        Case(name: "HardSigmoid", nodes: [node("HardSigmoid", ["x"], "y", ["alpha": [0.2], "beta": [0.5]])], input: [1, 4, 5, 6]),
        Case(
            name: "Hard-swish as Paddle writes it, after a convolution, then a scale and shift",
            nodes: [
                node("Conv", ["x", "w", "b"], "c", ["pads": [1, 1, 1, 1]]), node("Add", ["c", "three"], "a"),
                node("Clip", ["a", "lo", "hi"], "k"), node("Mul", ["c", "k"], "m"), node("Div", ["m", "six"], "h"),
                node("Mul", ["h", "s"], "hs"), node("Add", ["hs", "t"]),
            ],
            constants: ["w": [6, 3, 3, 3], "b": [6]], fixed: ["three": [3], "lo": [0], "hi": [6], "six": [6], "s": [1.5], "t": [-0.25]],
            input: [1, 3, 8, 8]),
        Case(name: "Relu, Sigmoid", nodes: [node("Relu", ["x"], "r"), node("Sigmoid", ["r"])], input: [1, 3, 5, 7]),
        Case(
            name: "Resize nearest ×2", nodes: [node("Resize", ["x", "roi", "scales"], "y", ["nearest": [1]])],
            fixed: ["roi": [], "scales": [1, 1, 2, 2]], input: [1, 3, 5, 4]),
        Case(
            name: "MaxPool 3×3 stride 2",
            nodes: [node("MaxPool", ["x"], "y", ["kernel_shape": [3, 3], "strides": [2, 2], "pads": [1, 1, 1, 1]])],
            input: [1, 4, 9, 8]),
        Case(
            name: "AveragePool 2×2 stride 2", nodes: [node("AveragePool", ["x"], "y", ["kernel_shape": [2, 2], "strides": [2, 2]])],
            input: [1, 4, 8, 6]),
        Case(
            name: "Squeeze-and-excitation: GlobalAveragePool, 1×1 convolutions, HardSigmoid, Mul",
            nodes: [
                node("GlobalAveragePool", ["x"], "g"), node("Conv", ["g", "w1", "b1"], "c1"), node("Relu", ["c1"], "r"),
                node("Conv", ["r", "w2", "b2"], "c2"), node("HardSigmoid", ["c2"], "h", ["alpha": [0.2], "beta": [0.5]]),
                node("Mul", ["x", "h"]),
            ],
            constants: ["w1": [2, 8, 1, 1], "b1": [2], "w2": [8, 2, 1, 1], "b2": [8]], input: [1, 8, 5, 6]),
        Case(
            name: "Concat along channels",
            nodes: [node("Relu", ["x"], "a"), node("Sigmoid", ["x"], "b"), node("Concat", ["a", "b"], "y", ["axis": [1]])],
            input: [1, 3, 4, 5]),
        Case(
            name: "A bias added through a Reshape of a constant (folded before the tail)",
            nodes: [node("Conv", ["x", "w"], "c"), node("Reshape", ["bias", "shape"], "rb"), node("Add", ["c", "rb"])],
            constants: ["w": [5, 4, 1, 1], "bias": [5]], fixed: ["shape": [1, 5, 1, 1]], input: [1, 4, 6, 6]),
    ]

    /// Builds the model with `onnx` (opset 13, seeded weights), runs it with ONNX Runtime on
    /// the input and writes the output; the model is saved for KameraNN to read.
    static let script = """
        import json, sys, numpy as np, onnx, onnxruntime as ort
        from onnx import helper, TensorProto, numpy_helper
        spec_path, inp, out, model_path = sys.argv[1:5]
        spec = json.load(open(spec_path))
        rng = np.random.default_rng(7)
        inits = []
        for name, shape in sorted(spec["constants"].items()):
            low, high = (0.5, 1.5) if name.endswith("var") else (-1.0, 1.0)
            inits.append(numpy_helper.from_array(rng.uniform(low, high, shape).astype(np.float32), name))
        for name, values in sorted(spec["fixed"].items()):
            array = np.array(values, dtype=np.int64 if name == "shape" else np.float32)
            if name in ("three", "six", "lo", "hi", "s", "t"): array = array.reshape(())
            inits.append(numpy_helper.from_array(array, name))
        nodes = []
        for n in spec["nodes"]:
            attrs = {}
            for key, values in n["attributes"].items():
                if key == "nearest": attrs["mode"] = "nearest"; continue
                if key in ("alpha", "beta"): attrs[key] = float(values[0]); continue
                if key in ("group", "axis"): attrs[key] = int(values[0]); continue
                attrs[key] = [int(v) for v in values]
            nodes.append(helper.make_node(n["op"], n["inputs"], n["outputs"], **attrs))
        x = helper.make_tensor_value_info("x", TensorProto.FLOAT, spec["input"])
        y = helper.make_tensor_value_info("y", TensorProto.FLOAT, None)
        graph = helper.make_graph(nodes, "case", [x], [y], inits)
        model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
        model.ir_version = 8
        onnx.save(model, model_path)
        options = ort.SessionOptions(); options.intra_op_num_threads = 1
        session = ort.InferenceSession(model_path, options, providers=["CPUExecutionProvider"])
        data = np.fromfile(inp, dtype=np.float32).reshape(spec["input"])
        with open(out, "wb") as f:
            f.write(session.run(None, {"x": data})[0].astype(np.float32).tobytes())
        """

    @Test("KameraNN equals ONNX Runtime", arguments: cases)
    func operatorMatches(_ spec: Case) throws {
        guard let python = ONNXRuntimeReference.python else { throw LiteRTReference.Failure.unavailable("no Python with onnxruntime") }
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("onnx-op-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let specURL = dir.appendingPathComponent("spec.json"), modelURL = dir.appendingPathComponent("model.onnx")
        try JSONEncoder().encode(spec).write(to: specURL)
        let (c, h, w) = (spec.input[1], spec.input[2], spec.input[3])
        var seed = UInt64(spec.name.utf8.count)
        let chw = randomValues(c * h * w, seed: &seed).map { $0 * 4 }  // −4…4 reaches every piece of the activations
        let theirs = try LiteRTReference.runScript(
            python: python, script: Self.script, model: specURL.path, input: chw, extra: [modelURL.path])
        let program = try ONNXNetwork(contentsOf: modelURL.path).program(height: h, width: w)
        let session = program.network.makeSession()
        session.withInput { input in
            for k in 0..<c { for p in 0..<(h * w) { input[p * c + k] = chw[k * h * w + p] } }
        }
        let ours = try #require(try program.run(session).first)
        #expect(ours.values.count == theirs.count, "\(ours.shape): \(ours.values.count) values against \(theirs.count)")
        let worst = zip(ours.values, theirs).map { abs($0 - $1) }.max() ?? .infinity
        #expect(worst < 1e-4, "max |Δ| \(worst)")
    }
}
