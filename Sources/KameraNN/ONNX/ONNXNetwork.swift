import Foundation
import KameraCore

/// An ONNX model read once, compiled by KameraNN for each input size it is asked for (ONNX
/// graphs such as PP-OCR's leave the image size open; KameraNN plans memory for one size).
/// Immutable and shareable.
public final class ONNXNetwork: Sendable {
    /// The file the model came from.
    public let path: String
    private let model: ONNXModel

    /// Reads an `.onnx` file.
    /// - Throws: `KameraError.missingResource` when the file is missing, `invalidModel` when it
    ///   is truncated or not an ONNX model.
    public init(contentsOf path: String) throws {
        self.path = path
        model = try ONNXModelReader.read(contentsOf: path)
    }

    /// Reads a model held in memory (`name` labels errors).
    public init(bytes: [UInt8], name: String) throws {
        path = name
        model = try ONNXModelReader.read(bytes: bytes, path: name)
    }

    /// The model's metadata (`metadata_props`).
    public var metadata: [String: String] { model.metadata }

    /// The model compiled for a 1 × C × `height` × `width` input, image layers on KameraNN and
    /// any sequence layers after them evaluated node by node (`ONNXProgram`).
    /// - Throws: `KameraError.invalidModel` for an operator KameraNN does not run.
    public func program(height: Int, width: Int) throws -> ONNXProgram {
        let imported = try ONNXGraphImporter.split(model, path: path, height: height, width: width)
        return ONNXProgram(
            network: try NeuralNetwork(graph: imported.head, name: path), tail: imported.tail, headOutputs: imported.headOutputs)
    }

    /// The model compiled for a 1 × C × `height` × `width` input (its tensors NHWC, as every
    /// KameraNN network's).
    /// - Throws: `KameraError.invalidModel` for an operator KameraNN does not run or shapes
    ///   that do not fit the size.
    public func network(height: Int, width: Int) throws -> NeuralNetwork {
        try NeuralNetwork(graph: try ONNXGraphImporter.graph(model, path: path, height: height, width: width), name: path)
    }
}
