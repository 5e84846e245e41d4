import Foundation
import KameraCore

/// A TFLite model loaded and compiled by KameraNN: weights widened to fp32 and packed for the
/// kernels, shapes validated, the memory plan fixed. Immutable and shareable; run it through
/// an `InferenceSession` (one per thread).
public final class NeuralNetwork: Sendable {
    /// The file the model came from.
    public let path: String
    let compiled: CompiledNetwork
    /// The graph as read, kept to compile other input sizes (`resized`).
    private let graph: ModelGraph

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
    init(graph: ModelGraph, name: String, inputSize: (height: Int, width: Int)? = nil) throws {
        path = name
        self.graph = graph
        var compiler = NetworkCompiler(graph: graph, path: name, inputSize: inputSize)
        compiled = try compiler.compile()
    }

    /// The same model compiled for a `height` × `width` input, for fully convolutional models
    /// (a detector run over a whole image at once). Throws `KameraError.invalidModel` when
    /// the model is not fully convolutional or the size is not a multiple of its strides.
    public func resized(height: Int, width: Int) throws -> NeuralNetwork {
        try NeuralNetwork(graph: graph, name: path, inputSize: (height, width))
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
