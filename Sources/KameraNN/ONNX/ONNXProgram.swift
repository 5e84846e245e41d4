import KameraCore

/// An ONNX model compiled for one input size: its image layers as a KameraNN network, and the
/// sequence layers after them (if any) evaluated on the network's outputs. Immutable and
/// shareable; each run takes a session of `network`.
public final class ONNXProgram: Sendable {
    /// The image layers (input NHWC).
    public let network: NeuralNetwork
    let tail: ONNXTail?
    let headOutputs: [(name: String, dims: [Int])]

    init(network: NeuralNetwork, tail: ONNXTail?, headOutputs: [(name: String, dims: [Int])]) {
        (self.network, self.tail, self.headOutputs) = (network, tail, headOutputs)
    }

    /// The model's outputs for the input `session` holds (filled through `withInput`, NHWC),
    /// each with its ONNX shape, row-major.
    /// - Throws: `KameraError.invalidModel` when a sequence layer meets shapes it cannot take.
    public func run(_ session: InferenceSession) throws -> [(shape: [Int], values: [Float])] {
        session.invoke()
        var heads: [String: ONNXTail.Array] = [:]
        for (index, output) in headOutputs.enumerated() {
            let values = Array(session.output(index))
            let dims = output.dims
            guard dims.count == 4 else {
                heads[output.name] = ONNXTail.Array(shape: dims, values: values)
                continue
            }
            // NHWC back to NCHW.
            let (c, h, w) = (dims[1], dims[2], dims[3])
            var chw = [Float](repeating: 0, count: values.count)
            for p in 0..<(h * w) {
                for k in 0..<c { chw[k * h * w + p] = values[p * c + k] }
            }
            heads[output.name] = ONNXTail.Array(shape: dims, values: chw)
        }
        guard let tail else { return headOutputs.map { (heads[$0.name]!.shape, heads[$0.name]!.values) } }
        return try tail.run(heads).map { ($0.shape, $0.values) }
    }
}
