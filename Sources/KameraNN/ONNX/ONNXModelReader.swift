import Foundation
import KameraCore

/// Reads an `.onnx` file into an `ONNXModel` with its own Protocol Buffers reader (field
/// numbers from `onnx/onnx.proto`). Weights stored in external files are refused: the models
/// KameraNN runs keep them inside.
enum ONNXModelReader {
    /// Tensors larger than this (2^28 elements, 1 GiB of floats) are refused.
    static let maximumElements = 1 << 28

    static func read(contentsOf path: String) throws -> ONNXModel {
        guard FileManager.default.fileExists(atPath: path) else {
            throw KameraError.missingResource(name: "model \(path)", hint: ModelStore.installHint)
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw KameraError.unreadableFile(path: path, reason: "cannot open")
        }
        return try read(bytes: [UInt8](data), path: path)
    }

    static func read(bytes: [UInt8], path: String) throws -> ONNXModel {
        var model = ProtobufReader(bytes: bytes, path: path)
        var opset = 0
        var graph: Range<Int>?
        var metadata: [String: String] = [:]
        while let (field, value) = try model.next() {
            switch (field, value) {
            case (7, .bytes(let range)): graph = range
            case (14, .bytes(let range)):
                // StringStringEntryProto: key 1, value 2.
                var entry = ProtobufReader(model, range: range)
                var (key, text) = ("", "")
                while let (f, v) = try entry.next() {
                    if f == 1, case .bytes(let r) = v { key = entry.string(r) }
                    if f == 2, case .bytes(let r) = v { text = entry.string(r) }
                }
                metadata[key] = text
            case (8, .bytes(let range)):
                // OperatorSetIdProto: domain 1, version 2; the default domain is "".
                var set = ProtobufReader(model, range: range)
                var (domain, version) = ("", 0)
                while let (f, v) = try set.next() {
                    if f == 1, case .bytes(let r) = v { domain = set.string(r) }
                    if f == 2, case .varint(let n) = v { version = Int(clamping: n) }
                }
                if domain.isEmpty || domain == "ai.onnx" { opset = version }
            default: break
            }
        }
        guard let graph else { throw model.fail("no graph (not an ONNX model?)") }
        var result = ONNXModel(opsetVersion: opset, nodes: [], initializers: [:], inputs: [], outputs: [], metadata: metadata)
        var reader = ProtobufReader(model, range: graph)
        while let (field, value) = try reader.next() {
            guard case .bytes(let range) = value else { continue }
            switch field {
            case 1: result.nodes.append(try node(ProtobufReader(reader, range: range)))
            case 5:
                let constant = try tensor(ProtobufReader(reader, range: range))
                result.initializers[constant.name] = constant
            case 11: result.inputs.append(try valueInfo(ProtobufReader(reader, range: range)))
            case 12: result.outputs.append(try valueInfo(ProtobufReader(reader, range: range)))
            default: break
            }
        }
        guard !result.nodes.isEmpty else { throw reader.fail("the graph has no nodes") }
        return result
    }

    private static func node(_ message: ProtobufReader) throws -> ONNXModel.Node {
        var reader = message
        var node = ONNXModel.Node(opType: "", name: "", inputs: [], outputs: [], attributes: [:])
        while let (field, value) = try reader.next() {
            guard case .bytes(let range) = value else { continue }
            switch field {
            case 1: node.inputs.append(reader.string(range))
            case 2: node.outputs.append(reader.string(range))
            case 3: node.name = reader.string(range)
            case 4: node.opType = reader.string(range)
            case 5:
                let (name, attribute) = try attribute(ProtobufReader(reader, range: range))
                if let attribute { node.attributes[name] = attribute }
            case 7:
                let domain = reader.string(range)
                guard domain.isEmpty || domain == "ai.onnx" else { throw reader.fail("operator domain \(domain) is not supported") }
            default: break
            }
        }
        return node
    }

    private static func attribute(_ message: ProtobufReader) throws -> (String, ONNXModel.Attribute?) {
        var reader = message
        var name = ""
        var (f, i, s, t): (Float?, Int64?, String?, ONNXModel.Tensor?) = (nil, nil, nil, nil)
        var floats: [Float] = [], ints: [Int64] = []
        var type = 0
        while let (field, value) = try reader.next() {
            switch (field, value) {
            case (1, .bytes(let r)): name = reader.string(r)
            case (2, .fixed32(let bits)): f = Float(bitPattern: bits)
            case (3, .varint(let v)): i = Int64(bitPattern: v)
            case (4, .bytes(let r)): s = reader.string(r)
            case (5, .bytes(let r)): t = try tensor(ProtobufReader(reader, range: r))
            case (7, _): floats += try reader.floats(value)
            case (8, _): ints += try reader.int64s(value)
            case (20, .varint(let v)): type = Int(clamping: v)
            default: break
            }
        }
        // AttributeProto.AttributeType: FLOAT 1, INT 2, STRING 3, TENSOR 4, FLOATS 6, INTS 7.
        let attribute: ONNXModel.Attribute? =
            switch type {
            case 1: f.map { .float($0) } ?? .float(0)
            case 2: i.map { .int($0) } ?? .int(0)
            case 3: s.map { .string($0) } ?? .string("")
            case 4: t.map { .tensor($0) }
            case 6: .floats(floats)
            case 7: .ints(ints)
            default: nil
            }
        return (name, attribute)
    }

    /// TensorProto: dims 1, data_type 2, float_data 4, int32_data 5, int64_data 7, name 8,
    /// raw_data 9, data_location 14 (1 = external).
    static func tensor(_ message: ProtobufReader) throws -> ONNXModel.Tensor {
        var reader = message
        var dims: [Int64] = []
        var dataType = 0
        var name = ""
        var floatData: [Float] = [], intData: [Int64] = []
        var raw: Range<Int>?
        while let (field, value) = try reader.next() {
            switch (field, value) {
            case (1, _): dims += try reader.int64s(value)
            case (2, .varint(let v)): dataType = Int(clamping: v)
            case (4, _): floatData += try reader.floats(value)
            case (5, _), (7, _): intData += try reader.int64s(value)
            case (8, .bytes(let r)): name = reader.string(r)
            case (9, .bytes(let r)): raw = r
            case (14, .varint(let v)) where v == 1: throw reader.fail("tensor \(name) keeps its data in an external file")
            default: break
            }
        }
        var count = 1
        for dim in dims {
            guard dim >= 0, dim <= Int64(maximumElements) else { throw reader.fail("tensor \(name) has dimension \(dim)") }
            let (product, overflow) = count.multipliedReportingOverflow(by: Int(dim))
            guard !overflow, product <= maximumElements else { throw reader.fail("tensor \(name) \(dims) is too large") }
            count = product
        }
        var tensor = ONNXModel.Tensor(name: name, dims: dims.map(Int.init))
        // TensorProto.DataType: FLOAT 1, INT32 6, INT64 7.
        switch dataType {
        case 1:
            if let raw {
                guard raw.count == 4 * count else { throw reader.fail("tensor \(name): \(raw.count) bytes for \(count) floats") }
                tensor.floats = ProtobufReader.littleEndianFloats(reader.bytes[raw])
            } else {
                tensor.floats = floatData
            }
            guard tensor.floats?.count == count else {
                throw reader.fail("tensor \(name): \(tensor.floats?.count ?? 0) floats for \(dims)")
            }
        case 6, 7:
            if let raw {
                let size = dataType == 7 ? 8 : 4
                guard raw.count == size * count else { throw reader.fail("tensor \(name): \(raw.count) bytes for \(count) integers") }
                let bytes = reader.bytes
                tensor.ints = (0..<count).map { i in
                    let at = raw.lowerBound + size * i
                    let bits = (0..<size).reduce(UInt64(0)) { $0 | UInt64(bytes[at + $1]) << UInt64(8 * $1) }
                    return size == 8 ? Int64(bitPattern: bits) : Int64(Int32(truncatingIfNeeded: bits))
                }
            } else {
                tensor.ints = intData
            }
            guard tensor.ints?.count == count else { throw reader.fail("tensor \(name): \(tensor.ints?.count ?? 0) integers for \(dims)") }
        default:
            throw reader.fail("tensor \(name) has data type \(dataType); only float, int32 and int64 are supported")
        }
        return tensor
    }

    /// ValueInfoProto: name 1, type 2 → TypeProto.tensor_type 1 → shape 2 → dim 1 →
    /// dim_value 1 (dim_param 2 leaves it symbolic).
    private static func valueInfo(_ message: ProtobufReader) throws -> ONNXModel.ValueInfo {
        var reader = message
        var info = ONNXModel.ValueInfo(name: "", dims: [])
        func messages(_ parent: ProtobufReader, field wanted: Int) throws -> [ProtobufReader] {
            var reader = parent
            var found: [ProtobufReader] = []
            while let (field, value) = try reader.next() {
                if field == wanted, case .bytes(let r) = value { found.append(ProtobufReader(reader, range: r)) }
            }
            return found
        }
        while let (field, value) = try reader.next() {
            guard case .bytes(let range) = value else { continue }
            if field == 1 { info.name = reader.string(range) }
            if field == 2 {
                for tensorType in try messages(ProtobufReader(reader, range: range), field: 1) {
                    for shape in try messages(tensorType, field: 2) {
                        for dim in try messages(shape, field: 1) {
                            var d = dim
                            var size: Int?
                            while let (f, v) = try d.next() {
                                if f == 1, case .varint(let n) = v, n > 0, n <= UInt64(maximumElements) { size = Int(n) }
                            }
                            info.dims.append(size)
                        }
                    }
                }
            }
        }
        return info
    }
}
