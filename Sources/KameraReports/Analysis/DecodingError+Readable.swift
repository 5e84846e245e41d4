import Foundation

extension DecodingError {
    /// One line naming the key and what was wrong with its value, for an API client.
    package var readableDescription: String {
        func path(_ context: Context) -> String {
            context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
        }
        switch self {
        case .typeMismatch(let type, let context): return "\(path(context)): expected \(Self.name(type)); \(context.debugDescription)"
        case .valueNotFound(let type, let context): return "\(path(context)): expected \(Self.name(type)), found null"
        case .keyNotFound(let key, _): return "missing \(key.stringValue)"
        case .dataCorrupted(let context):
            let at = path(context)
            return at.isEmpty ? "not valid JSON: \(context.debugDescription)" : "\(at): \(context.debugDescription)"
        @unknown default: return "\(self)"
        }
    }

    private static func name(_ type: Any.Type) -> String {
        switch type {
        case is Bool.Type: "true or false"
        case is Int.Type: "a whole number"
        case is Double.Type, is Float.Type: "a number"
        case is String.Type: "a string"
        default: "\(type)"
        }
    }
}
