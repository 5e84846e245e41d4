import Foundation
import KameraCore

/// A TFLite model loaded and compiled by KameraNN: weights widened to fp32 and packed for the
/// kernels, shapes validated, the memory plan fixed. Immutable and shareable; run it through
/// an `InferenceSession` (one per thread).
public final class NeuralNetwork: Sendable {
    /// The file the model came from.
    public let path: String
    let compiled: CompiledNetwork
    /// The graph as read, kept to compile other input sizes (`resized`) and output sets
    /// (`keepingOutputs`).
    private let graph: ModelGraph
    private let inputSize: (height: Int, width: Int)?
    /// Positions in the model's outputs of the ones this network computes; nil for all.
    private let keptOutputs: [Int]?

    /// Loads and compiles a `.tflite` model. Throws `KameraError.invalidModel` for a truncated
    /// or corrupt file, an unsupported op or inconsistent shapes.
    public convenience init(contentsOf path: String) throws {
        try self.init(graph: try TFLiteModelReader.read(contentsOf: path), name: path)
    }

    /// Compiles a model held in memory (`name` labels errors).
    public convenience init(bytes: [UInt8], name: String) throws {
        try self.init(graph: try TFLiteModelReader.read(bytes: bytes, path: name), name: name)
    }

    /// Compiles a graph built in memory (tests build single-op graphs this way).
    init(graph: ModelGraph, name: String, inputSize: (height: Int, width: Int)? = nil, keptOutputs: [Int]? = nil) throws {
        path = name
        self.graph = graph
        (self.inputSize, self.keptOutputs) = (inputSize, keptOutputs)
        var compiler = NetworkCompiler(graph: graph, path: name, inputSize: inputSize, keptOutputs: keptOutputs)
        compiled = try compiler.compile()
    }

    /// The same model compiled for a `height` × `width` input, for fully convolutional models
    /// (a detector run over a whole image at once). Throws `KameraError.invalidModel` when
    /// the model is not fully convolutional or the size is not a multiple of its strides.
    public func resized(height: Int, width: Int) throws -> NeuralNetwork {
        try NeuralNetwork(graph: graph, name: path, inputSize: (height, width), keptOutputs: keptOutputs)
    }

    /// The same model computing only some of its outputs: operations that lead to none of
    /// them are left out (a model's optional heads cost their time otherwise).
    /// - Parameter outputs: Positions in this network's `outputShapes`, in the order the new
    ///   network lists them.
    /// - Throws: `KameraError.invalidArgument` for an empty list, a repeated position or one
    ///   out of range.
    public func keepingOutputs(_ outputs: [Int]) throws -> NeuralNetwork {
        guard !outputs.isEmpty, Set(outputs).count == outputs.count, outputs.allSatisfy(compiled.outputs.indices.contains)
        else {
            throw KameraError.invalidArgument("outputs \(outputs) are not distinct positions in 0..<\(compiled.outputs.count)")
        }
        let modelPositions = outputs.map { keptOutputs?[$0] ?? $0 }
        return try NeuralNetwork(graph: graph, name: path, inputSize: inputSize, keptOutputs: modelPositions)
    }

    /// Input tensor shapes (NHWC).
    public var inputShapes: [[Int]] { compiled.inputs.map(\.shape) }
    /// Output tensor shapes, in the model's output order.
    public var outputShapes: [[Int]] { compiled.outputs.map(\.shape) }
    /// Output tensor names, in the model's output order.
    public var outputNames: [String] { compiled.outputs.map(\.name) }
    /// Kernel calls per inference (after folding and fusion).
    public var stepCount: Int { compiled.steps.count }

    /// A session with its own activation memory. `threads` > 1 splits the large kernels.
    public func makeSession(threads: Int = 1) -> InferenceSession {
        InferenceSession(network: self, threads: threads)
    }
}
