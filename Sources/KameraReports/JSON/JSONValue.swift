import Foundation

/// A JSON value whose objects keep their keys in the order written, so the CLI prints fields
/// in the documented order (Foundation's encoder on Linux does not keep order).
package indirect enum JSONValue {
    case object([(String, JSONValue)])
    case array([JSONValue])
    case string(String)
    case number(Double)
    case int(Int)
    case bool(Bool)
    case null

    /// Indented text; arrays of numbers stay on one line (`[24, 198]`).
    package func rendered(indent: String = "") -> String {
        let inner = indent + "  "
        switch self {
        case .object(let members):
            if members.isEmpty { return "{}" }
            let body = members.map { "\(inner)\(Self.quote($0.0)): \($0.1.rendered(indent: inner))" }.joined(separator: ",\n")
            return "{\n\(body)\n\(indent)}"
        case .array(let items):
            if items.isEmpty { return "[]" }
            if items.allSatisfy({ $0.isScalar }) { return "[" + items.map { $0.rendered() }.joined(separator: ", ") + "]" }
            return "[\n" + items.map { inner + $0.rendered(indent: inner) }.joined(separator: ",\n") + "\n\(indent)]"
        case .string(let text): return Self.quote(text)
        case .number(let value):
            if !value.isFinite { return "null" }
            if value == value.rounded(), abs(value) < 1e15 { return String(Int(value)) }
            return String(value)
        case .int(let value): return String(value)
        case .bool(let value): return value ? "true" : "false"
        case .null: return "null"
        }
    }

    /// One line, no spaces (JSON Lines).
    package func compact() -> String {
        switch self {
        case .object(let members): "{" + members.map { "\(Self.quote($0.0)):\($0.1.compact())" }.joined(separator: ",") + "}"
        case .array(let items): "[" + items.map { $0.compact() }.joined(separator: ",") + "]"
        default: rendered()
        }
    }

    private var isScalar: Bool {
        switch self {
        case .object, .array: false
        default: true
        }
    }

    package static func quote(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F {
                    out += String(format: "\\u%04x", scalar.value)
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }
}
