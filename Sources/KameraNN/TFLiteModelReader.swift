import Foundation
import KameraCore

/// Reads a `.tflite` file (a FlatBuffer in TFLite's schema) into a `ModelGraph`, with its own
/// reader: no third-party package. Field numbers follow `tensorflow/lite/schema/schema.fbs`.
enum TFLiteModelReader {
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
        let opcodes = try model.tables(1).map { code -> (builtin: Int32, custom: String?) in
            // Codes above 127 live in the newer int32 field; the old byte field saturates.
            (max(Int32(Int8(bitPattern: try code.uint8(0))), try code.int32(3)), try code.string(1))
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
            let type: TensorElementType =
                switch typeCode {
                case 0: .float32
                case 1: .float16
                case 2: .int32
                default: .unsupported(typeCode)
                }
            let name = try tensor.string(3) ?? "tensor\(tensors.count)"
            var entry = GraphTensor(name: name, shape: shape, elementType: type)
            let bufferIndex = Int(try tensor.uint32(2))
            if bufferIndex > 0, bufferIndex < buffers.count,
                let range = try bufferBytes(buffers[bufferIndex], reader: reader), !range.isEmpty
            {
                let elementSize = type == .float16 ? 2 : 4
                // A sparse tensor stores only its non-zero values (densified below).
                let sparsity = try tensor.table(6)
                let count = sparsity == nil ? shape.reduce(1, *) : range.count / elementSize
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
                if let sparsity {
                    guard let values = entry.floats else { throw reader.fail("tensor \(name): sparse integers are not supported") }
                    entry.floats = try SparseTensor(sparsity, shape: shape, fail: reader.fail).densified(values, fail: reader.fail)
                }
            }
            tensors.append(entry)
        }

        func index(_ value: Int32) throws -> Int {
            guard value >= 0, Int(value) < tensors.count else { throw reader.fail("tensor index \(value) out of range") }
            return Int(value)
        }

        var operations: [any GraphOperator] = []
        for op in try graph.tables(3) {
            let opcodeIndex = Int(try op.uint32(0))
            guard opcodeIndex < opcodes.count else { throw reader.fail("operator code \(opcodeIndex) out of range") }
            let outputs = try op.int32Vector(2)
            guard outputs.count == 1 else { throw reader.fail("operator with \(outputs.count) outputs") }
            let code = opcodes[opcodeIndex]
            guard let type = OperatorRegistry.operatorType(code: code.builtin, custom: code.custom) else {
                let name = code.custom.map { "custom operator \($0)" } ?? "builtin code \(code.builtin)"
                throw reader.fail("unsupported operator (\(name))")
            }
            let customOptions = try op.byteRange(5).map { Array(reader.bytes[$0]) }
            operations.append(
                try type.init(
                    OperatorRecord(
                        inputIndices: try op.int32Vector(1), output: try index(outputs[0]),
                        options: try op.table(4), customOptions: customOptions, reader: reader, tensorCount: tensors.count)))
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
}

private extension UInt32 {
    init(littleEndianBytes bytes: [UInt8], at i: Int) {
        self = UInt32(bytes[i]) | UInt32(bytes[i + 1]) << 8 | UInt32(bytes[i + 2]) << 16 | UInt32(bytes[i + 3]) << 24
    }
}
