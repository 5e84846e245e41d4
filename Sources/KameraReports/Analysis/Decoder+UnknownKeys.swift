import Kamera

extension Decoder {
    /// Refuses a message or query with a key not in `Keys`: a misspelt option must be an error,
    /// not silently its default.
    /// - Throws: `KameraError.invalidArgument` naming the key and the known ones.
    package func refuseUnknownKeys<Keys: CodingKey & CaseIterable>(_ keys: Keys.Type) throws {
        let known = Set(Keys.allCases.map(\.stringValue))
        if let unknown = try container(keyedBy: AnyCodingKey.self).allKeys.first(where: { !known.contains($0.stringValue) }) {
            throw KameraError.invalidArgument(
                "unknown option '\(unknown.stringValue.prefix(40))'; known: \(Keys.allCases.map(\.stringValue).joined(separator: ", "))")
        }
    }
}

/// Any key: only to list what a message holds.
private struct AnyCodingKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}
