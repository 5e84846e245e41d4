import Foundation
import KameraCore

/// Reads a `.tflite` file (a FlatBuffer in TFLite's schema) into a `ModelGraph`, with its own
/// reader: no third-party package. Field numbers follow `tensorflow/lite/schema/schema.fbs`.
enum TFLiteModelReader {
    /// TFLite builtin operator codes (schema.fbs `BuiltinOperator`).
    private enum BuiltinOperator: Int32 {
        case add = 0, concatenation = 2, conv2D = 3, depthwiseConv2D = 4, dequantize = 6,
             logistic = 14, maxPool2D = 17, relu = 19, relu6 = 21, reshape = 22,
             resizeBilinear = 23, pad = 34, prelu = 54
    }

    static func read(contentsOf path: String) throws -> ModelGraph {
        guard FileManager.default.fileExists(atPath: path) else {
            throw KameraError.missingResource(name: "model \(path)", hint: ModelStore.installHint)
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw KameraError.unreadableFile(path: path, reason: "cannot open")
        }
        return try read(bytes: [UInt8](data), path: path)
    }

    static func read(bytes: [UInt8], path: String) throws -> ModelGraph {
        let reader = FlatBufferReader(bytes: bytes, path: path)
        guard bytes.count >= 8 else { throw reader.fail("file too short (\(bytes.count) bytes)") }
        guard bytes[4..<8].elementsEqual("TFL3".utf8) else {
            throw reader.fail("not a TFLite model (no TFL3 identifier)")
        }
        let model = try reader.root()
        let opcodes = try model.tables(1).map { code -> Int32 in
            // Codes above 127 live in the newer int32 field; the old byte field saturates.
            max(Int32(Int8(bitPattern: try code.uint8(0))), try code.int32(3))
        }
        let buffers = try model.tables(4)
        let subgraphs = try model.tables(2)
        guard let graph = subgraphs.first else { throw reader.fail("no subgraph") }

        var tensors: [GraphTensor] = []
        for tensor in try graph.tables(0) {
            let shape = try tensor.int32Vector(0).map(Int.init)
            // Bound every tensor (2^28 floats = 1 GiB) so a corrupt shape cannot overflow or exhaust memory.
            var elements = 1
            for dimension in shape {
                let (product, overflow) = elements.multipliedReportingOverflow(by: dimension)
                guard dimension >= 0, !overflow, product <= 1 << 28 else { throw reader.fail("invalid tensor shape \(shape)") }
                elements = product
            }
            let typeCode = try tensor.uint8(1)
            let type: TensorElementType = switch typeCode {
            case 0: .float32
            case 1: .float16
            case 2: .int32
            default: .unsupported(typeCode)
            }
            let name = try tensor.string(3) ?? "tensor\(tensors.count)"
            var entry = GraphTensor(name: name, shape: shape, elementType: type)
            let bufferIndex = Int(try tensor.uint32(2))
            if bufferIndex > 0, bufferIndex < buffers.count,
               let range = try bufferBytes(buffers[bufferIndex], reader: reader), !range.isEmpty {
                let count = shape.reduce(1, *)
                let elementSize = type == .float16 ? 2 : 4
                guard range.count == count * elementSize else {
                    throw reader.fail("tensor \(name): \(range.count) bytes of data for shape \(shape)")
                }
                switch type {
                case .float32:
                    entry.floats = (0..<count).map { Float(bitPattern: UInt32(littleEndianBytes: bytes, at: range.lowerBound + 4 * $0)) }
                case .float16:
                    entry.floats = (0..<count).map {
                        let at = range.lowerBound + 2 * $0
                        return Float(halfBits: UInt16(bytes[at]) | UInt16(bytes[at + 1]) << 8)
                    }
                case .int32:
                    entry.ints = (0..<count).map { Int32(bitPattern: UInt32(littleEndianBytes: bytes, at: range.lowerBound + 4 * $0)) }
                case .unsupported(let code):
                    throw reader.fail("tensor \(name) has unsupported element type \(code)")
                }
            }
            tensors.append(entry)
        }

        func index(_ value: Int32) throws -> Int {
            guard value >= 0, Int(value) < tensors.count else { throw reader.fail("tensor index \(value) out of range") }
            return Int(value)
        }

        var operations: [GraphOperation] = []
        for op in try graph.tables(3) {
            let opcodeIndex = Int(try op.uint32(0))
            guard opcodeIndex < opcodes.count else { throw reader.fail("operator code \(opcodeIndex) out of range") }
            let inputs = try op.int32Vector(1)
            let outputs = try op.int32Vector(2)
            guard outputs.count == 1 else { throw reader.fail("operator with \(outputs.count) outputs") }
            let output = try index(outputs[0])
            let options = try op.table(4)
            func input(_ i: Int) throws -> Int {
                guard i < inputs.count else { throw reader.fail("operator is missing input \(i)") }
                return try index(inputs[i])
            }
            func optionalInput(_ i: Int) throws -> Int? {
                i < inputs.count && inputs[i] >= 0 ? try index(inputs[i]) : nil
            }
            guard let code = BuiltinOperator(rawValue: opcodes[opcodeIndex]) else {
                throw reader.fail("unsupported operator (builtin code \(opcodes[opcodeIndex]))")
            }
            switch code {
            case .conv2D:
                let window = try Window(options, stride: (1, 2), dilation: (4, 5), padding: 0, reader: reader)
                operations.append(.conv2D(input: try input(0), filter: try input(1), bias: try optionalInput(2),
                                          output: output, window: window,
                                          activation: try activation(options, field: 3, reader: reader)))
            case .depthwiseConv2D:
                let window = try Window(options, stride: (1, 2), dilation: (5, 6), padding: 0, reader: reader)
                operations.append(.depthwiseConv2D(input: try input(0), filter: try input(1), bias: try optionalInput(2),
                                                   output: output, window: window,
                                                   depthMultiplier: Int(try options?.int32(3, default: 1) ?? 1),
                                                   activation: try activation(options, field: 4, reader: reader)))
            case .add:
                operations.append(.add(try input(0), try input(1), output: output,
                                       activation: try activation(options, field: 0, reader: reader)))
            case .relu: operations.append(.relu(input: try input(0), output: output))
            case .relu6: operations.append(.relu6(input: try input(0), output: output))
            case .prelu: operations.append(.prelu(input: try input(0), alpha: try input(1), output: output))
            case .maxPool2D:
                let window = try Window(options, stride: (1, 2), dilation: nil, padding: 0, reader: reader)
                operations.append(.maxPool2D(input: try input(0), output: output,
                                             filterH: Int(try options?.int32(4) ?? 1), filterW: Int(try options?.int32(3) ?? 1),
                                             window: window, activation: try activation(options, field: 5, reader: reader)))
            case .pad: operations.append(.pad(input: try input(0), paddings: try input(1), output: output))
            case .reshape: operations.append(.reshape(input: try input(0), output: output))
            case .concatenation:
                operations.append(.concatenation(inputs: try inputs.map(index), output: output,
                                                 axis: Int(try options?.int32(0) ?? 0),
                                                 activation: try activation(options, field: 1, reader: reader)))
            case .logistic: operations.append(.logistic(input: try input(0), output: output))
            case .resizeBilinear:
                operations.append(.resizeBilinear(input: try input(0), output: output,
                                                  alignCorners: try options?.bool(2) ?? false,
                                                  halfPixelCenters: try options?.bool(3) ?? false))
            case .dequantize: operations.append(.dequantize(input: try input(0), output: output))
            }
        }
        let graphInputs = try graph.int32Vector(1).map(index)
        let graphOutputs = try graph.int32Vector(2).map(index)
        guard !graphInputs.isEmpty, !graphOutputs.isEmpty else { throw reader.fail("graph without inputs or outputs") }
        return ModelGraph(tensors: tensors, operations: operations, inputs: graphInputs, outputs: graphOutputs)
    }

    /// A buffer's bytes: inline (`data`) or, in large models, at an absolute file offset.
    private static func bufferBytes(_ buffer: FlatBufferTable, reader: FlatBufferReader) throws -> Range<Int>? {
        if let inline = try buffer.byteRange(0) { return inline }
        let offset = try buffer.uint64(1), size = try buffer.uint64(2)
        guard offset > 1 else { return nil }
        guard offset + size <= UInt64(reader.bytes.count) else { throw reader.fail("buffer runs past the end of the file") }
        return Int(offset)..<Int(offset + size)
    }

    private static func activation(_ options: FlatBufferTable?, field: Int, reader: FlatBufferReader) throws -> FusedActivation {
        switch try options?.uint8(field) ?? 0 {
        case 0: .none
        case 1: .relu
        case 2: .reluMinus1To1
        case 3: .relu6
        case let other: throw reader.fail("unsupported fused activation \(other)")
        }
    }
}

private extension Window {
    init(_ options: FlatBufferTable?, stride: (w: Int, h: Int), dilation: (w: Int, h: Int)?, padding: Int,
         reader: FlatBufferReader) throws {
        self.init()
        guard let options else { return }
        self.padding = try options.uint8(padding) == 0 ? .same : .valid
        strideW = Int(try options.int32(stride.w, default: 1))
        strideH = Int(try options.int32(stride.h, default: 1))
        if let dilation {
            dilationW = Int(try options.int32(dilation.w, default: 1))
            dilationH = Int(try options.int32(dilation.h, default: 1))
        }
        guard strideW >= 1, strideH >= 1, dilationW >= 1, dilationH >= 1 else {
            throw reader.fail("invalid stride or dilation")
        }
    }
}

private extension UInt32 {
    init(littleEndianBytes bytes: [UInt8], at i: Int) {
        self = UInt32(bytes[i]) | UInt32(bytes[i + 1]) << 8 | UInt32(bytes[i + 2]) << 16 | UInt32(bytes[i + 3]) << 24
    }
}
