/// An ONNX model as read from its file (`onnx.proto`'s ModelProto, the parts inference
/// needs): the graph's nodes in order, its constant tensors, and its inputs and outputs.
struct ONNXModel: Sendable {
    /// A tensor's contents, widened: floats for float data, integers for int32/int64 data.
    struct Tensor: Sendable {
        var name: String
        var dims: [Int]
        var floats: [Float]?
        var ints: [Int64]?

        var elementCount: Int { dims.reduce(1, *) }
    }

    /// A node's attribute, by its type.
    enum Attribute: Sendable {
        case float(Float)
        case int(Int64)
        case string(String)
        case tensor(Tensor)
        case floats([Float])
        case ints([Int64])
    }

    struct Node: Sendable {
        var opType: String
        var name: String
        var inputs: [String]
        var outputs: [String]
        var attributes: [String: Attribute]

        func int(_ name: String) -> Int64? {
            if case .int(let v) = attributes[name] { v } else { nil }
        }
        func float(_ name: String) -> Float? {
            if case .float(let v) = attributes[name] { v } else { nil }
        }
        func ints(_ name: String) -> [Int64]? {
            if case .ints(let v) = attributes[name] { v } else { nil }
        }
        func string(_ name: String) -> String? {
            if case .string(let v) = attributes[name] { v } else { nil }
        }
    }

    /// A graph input or output: its name and declared shape (nil for a symbolic dimension).
    struct ValueInfo: Sendable {
        var name: String
        var dims: [Int?]
    }

    var opsetVersion: Int
    var nodes: [Node]
    var initializers: [String: Tensor]
    var inputs: [ValueInfo]
    var outputs: [ValueInfo]
    /// The model's metadata (`metadata_props`): PP-OCR's recognizers keep their character
    /// list under "character".
    var metadata: [String: String] = [:]
}
