import Foundation
import KameraCore
import KameraTestTiers
import Testing

@testable import KameraNN

/// Graphs a hostile or broken ONNX file can describe: numbers out of range (NaN shapes, huge
/// scales, axes past the rank, strides of zero), missing inputs and mismatched parts are typed
/// errors from the importer and the tail, never a trap.
@Suite("ONNX: hostile graphs are typed errors", .tier(.unit))
struct ONNXHostileGraphTests {
    typealias Node = ONNXModel.Node

    static func node(_ op: String, _ inputs: [String], _ output: String = "y", _ attributes: [String: ONNXModel.Attribute] = [:]) -> Node {
        Node(opType: op, name: op, inputs: inputs, outputs: [output], attributes: attributes)
    }

    static func constant(_ name: String, _ dims: [Int], _ floats: [Float]) -> ONNXModel.Tensor {
        ONNXModel.Tensor(name: name, dims: dims, floats: floats)
    }

    /// Runs one tail node on `x` (shape [1, 2, 3], values 0…5), `x4` (the same as an image
    /// [1, 2, 1, 3]) and the constants.
    func tail(_ node: Node, constants: [ONNXModel.Tensor] = []) throws -> ONNXTail.Array {
        let tail = ONNXTail(
            nodes: [node], constants: Dictionary(uniqueKeysWithValues: constants.map { ($0.name, $0) }), outputs: ["y"], path: "hostile")
        let values: [Float] = [0, 1, 2, 3, 4, 5]
        return try tail.run([
            "x": ONNXTail.Array(shape: [1, 2, 3], values: values), "x4": ONNXTail.Array(shape: [1, 2, 1, 3], values: values),
        ])[0]
    }

    @Test("The tail refuses NaN shapes, axes past the rank, mismatched parts, missing inputs and zero strides")
    func tailRefuses() throws {
        #expect(throws: KameraError.self) { try tail(Self.node("Reshape", ["x", "s"]), constants: [Self.constant("s", [2], [.nan, 3])]) }
        #expect(throws: KameraError.self) { try tail(Self.node("Reshape", ["x", "s"]), constants: [Self.constant("s", [1], [1e30])]) }
        #expect(throws: KameraError.self) { try tail(Self.node("Unsqueeze", ["x"], "y", ["axes": .ints([99])])) }
        #expect(throws: KameraError.self) { try tail(Self.node("Softmax", ["x"], "y", ["axis": .int(7)])) }
        #expect(throws: KameraError.self) { try tail(Self.node("ReduceMean", ["x"], "y", ["axes": .ints([-9])])) }
        #expect(throws: KameraError.self) {
            try tail(Self.node("Concat", ["x", "c"], "y", ["axis": .int(0)]), constants: [Self.constant("c", [2], [1, 2])])
        }
        #expect(throws: KameraError.self) { try tail(Self.node("Reshape", ["x"])) }
        #expect(throws: KameraError.self) { try tail(Self.node("Slice", ["x", "a"]), constants: [Self.constant("a", [1], [0])]) }
        #expect(throws: KameraError.self) {
            try tail(
                Self.node("Slice", ["x", "a", "b", "axes"]),
                constants: [Self.constant("a", [1], [0]), Self.constant("b", [1], [1]), Self.constant("axes", [1], [5])])
        }
        let weights = Self.constant("w", [1, 2, 1, 1], [1, 1])
        #expect(throws: KameraError.self) {
            try tail(
                Self.node("Conv", ["x4", "w"], "y", ["kernel_shape": .ints([1, 1]), "strides": .ints([0, 0])]), constants: [weights])
        }
        // The same convolution with a stride of one runs: each output sums the two channels.
        let summed = try tail(Self.node("Conv", ["x4", "w"], "y", ["kernel_shape": .ints([1, 1])]), constants: [weights])
        #expect(summed.shape == [1, 1, 1, 3] && summed.values == [3, 5, 7])
        // What exporters write for "to the end" (INT64_MAX) is clamped, not trapped on: the slice works.
        let sliced = try tail(
            Self.node("Slice", ["x", "a", "b", "axes"]),
            constants: [Self.constant("a", [1], [1]), Self.constant("b", [1], [9.2e18]), Self.constant("axes", [1], [2])])
        #expect(sliced.shape == [1, 2, 2] && sliced.values == [1, 2, 4, 5])
    }

    @Test("The importer refuses a NaN or huge resize, a zero pooling window and a node without its inputs")
    func importerRefuses() throws {
        func model(_ nodes: [Node], _ constants: [ONNXModel.Tensor] = []) -> ONNXModel {
            ONNXModel(
                opsetVersion: 12, nodes: nodes, initializers: Dictionary(uniqueKeysWithValues: constants.map { ($0.name, $0) }),
                inputs: [ONNXModel.ValueInfo(name: "x", dims: [1, 3, nil, nil])], outputs: [ONNXModel.ValueInfo(name: "y", dims: [])])
        }
        func imported(_ m: ONNXModel) throws { _ = try ONNXGraphImporter.split(m, path: "hostile", height: 32, width: 32) }
        for scale: Float in [.nan, .infinity, 1e9, 0] {
            #expect(throws: KameraError.self, "scale \(scale)") {
                try imported(model([Self.node("Resize", ["x", "", "s"])], [Self.constant("s", [4], [1, 1, scale, scale])]))
            }
        }
        #expect(throws: KameraError.self) { try imported(model([Self.node("AveragePool", ["x"], "y", ["kernel_shape": .ints([0, 0])])])) }
        #expect(throws: KameraError.self) { try imported(model([Self.node("Add", ["x"])])) }
        #expect(throws: KameraError.self) { try imported(model([Self.node("BatchNormalization", ["x", "g"])])) }
        // A constant reshaped to dims whose product overflows, or to the wrong count.
        let huge = Self.constant("shape", [8], [Float](repeating: 0, count: 8))
        var bigShape = huge
        (bigShape.floats, bigShape.ints) = (nil, [Int64](repeating: 1 << 28, count: 8))
        var wrongShape = huge
        (wrongShape.floats, wrongShape.ints) = (nil, [3, 3])
        for shape in [bigShape, wrongShape] {
            #expect(throws: KameraError.self, "\(shape.ints ?? [])") {
                try imported(model([Self.node("Reshape", ["c", "shape"], "y")], [Self.constant("c", [4], [1, 2, 3, 4]), shape]))
            }
        }
        // A resize that fits is imported.
        try imported(model([Self.node("Resize", ["x", "", "s"])], [Self.constant("s", [4], [1, 1, 2, 2])]))
    }
}
