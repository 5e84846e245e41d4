import Foundation
import KameraCore

/// A TFLite model loaded and compiled by KameraNN: weights widened to fp32 and packed for the
/// kernels, shapes validated, the memory plan fixed. Immutable and shareable; run it through
/// an `InferenceSession` (one per thread).
public final class NeuralNetwork: Sendable {
    /// The file the model came from.
    public let path: String
    let compiled: CompiledNetwork

    /// Loads and compiles a `.tflite` model. Throws `KameraError.invalidModel` for a truncated
    /// or corrupt file, an unsupported op or inconsistent shapes.
    public init(contentsOf path: String) throws {
        self.path = path
        var compiler = NetworkCompiler(graph: try TFLiteModelReader.read(contentsOf: path), path: path)
        compiled = try compiler.compile()
    }

    /// Compiles a model held in memory (`name` labels errors).
    public init(bytes: [UInt8], name: String) throws {
        path = name
        var compiler = NetworkCompiler(graph: try TFLiteModelReader.read(bytes: bytes, path: name), path: name)
        compiled = try compiler.compile()
    }

    /// Compiles a graph built in memory (tests build single-op graphs this way).
    init(graph: ModelGraph, name: String) throws {
        path = name
        var compiler = NetworkCompiler(graph: graph, path: name)
        compiled = try compiler.compile()
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
