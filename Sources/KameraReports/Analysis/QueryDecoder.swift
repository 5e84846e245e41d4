import Foundation

/// Decodes a `Decodable` struct from URL query parameters, so an HTTP route reads the same
/// type as a JSON message and a new field needs no parsing code: `?faces` and `?faces=true`
/// are true, `?faces=false` false; numbers are parsed in full (a trailing character is an
/// error, not ignored); a list is comma-separated (`symbologies=qr,ean13`); an enum is its raw
/// value. A parameter given twice is an error, not silently the last.
package struct QueryDecoder {
    package init() {}

    /// - Throws: `DecodingError` naming the parameter.
    package func decode<T: Decodable>(_ type: T.Type, from parameters: [(key: String, value: String)]) throws -> T {
        var values: [String: String] = [:]
        for (key, value) in parameters {
            guard values.updateValue(value, forKey: key) == nil else {
                throw DecodingError.dataCorrupted(.init(codingPath: [QueryKey(key)], debugDescription: "given more than once"))
            }
        }
        return try T(from: ParametersDecoder(values: values))
    }
}

private struct QueryKey: CodingKey {
    var stringValue: String
    var intValue: Int?
    init(_ name: String) { stringValue = name }
    init(stringValue: String) { self.stringValue = stringValue }
    init(intValue: Int) { (stringValue, self.intValue) = ("\(intValue)", intValue) }
}

/// The top level: the parameters as a keyed container.
private struct ParametersDecoder: Decoder {
    let values: [String: String]
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        KeyedDecodingContainer(ParametersContainer<Key>(values: values))
    }
    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        throw DecodingError.typeMismatch([Any].self, .init(codingPath: [], debugDescription: "query parameters are named"))
    }
    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        throw DecodingError.typeMismatch(Any.self, .init(codingPath: [], debugDescription: "query parameters are named"))
    }
}

private struct ParametersContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let values: [String: String]
    var codingPath: [any CodingKey] { [] }
    var allKeys: [Key] { values.keys.sorted().compactMap { Key(stringValue: $0) } }

    func contains(_ key: Key) -> Bool { values[key.stringValue] != nil }
    func decodeNil(forKey key: Key) throws -> Bool { values[key.stringValue] == nil }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        guard let text = values[key.stringValue] else {
            throw DecodingError.keyNotFound(key, .init(codingPath: [], debugDescription: "missing"))
        }
        return try T(from: ValueDecoder(text: text, codingPath: [key]))
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        throw DecodingError.typeMismatch([String: Any].self, .init(codingPath: [key], debugDescription: "a query value is not an object"))
    }
    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try ValueDecoder(text: values[key.stringValue] ?? "", codingPath: [key]).unkeyedContainer()
    }
    func superDecoder() throws -> any Decoder { ParametersDecoder(values: values) }
    func superDecoder(forKey key: Key) throws -> any Decoder { ValueDecoder(text: values[key.stringValue] ?? "", codingPath: [key]) }
}

/// One parameter's text: a scalar, or a comma-separated list.
private struct ValueDecoder: Decoder, SingleValueDecodingContainer {
    let text: String
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        throw DecodingError.typeMismatch(
            [String: Any].self, .init(codingPath: codingPath, debugDescription: "a query value is not an object"))
    }
    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        ListContainer(
            items: text.isEmpty ? [] : text.split(separator: ",", omittingEmptySubsequences: false).map(String.init), codingPath: codingPath
        )
    }
    func singleValueContainer() throws -> any SingleValueDecodingContainer { self }

    func decodeNil() -> Bool { false }
    func decode(_ type: Bool.Type) throws -> Bool {
        switch text.lowercased() {
        case "", "1", "true", "yes": return true
        case "0", "false", "no": return false
        default: throw mismatch(type, "'\(text.prefix(40))' is not true or false")
        }
    }
    func decode(_ type: String.Type) throws -> String { text }
    func decode(_ type: Double.Type) throws -> Double { try number(type) }
    func decode(_ type: Float.Type) throws -> Float { try number(type) }
    func decode(_ type: Int.Type) throws -> Int { try integer(type) }
    func decode(_ type: Int8.Type) throws -> Int8 { try integer(type) }
    func decode(_ type: Int16.Type) throws -> Int16 { try integer(type) }
    func decode(_ type: Int32.Type) throws -> Int32 { try integer(type) }
    func decode(_ type: Int64.Type) throws -> Int64 { try integer(type) }
    func decode(_ type: UInt.Type) throws -> UInt { try integer(type) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try integer(type) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try integer(type) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try integer(type) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try integer(type) }
    func decode<T: Decodable>(_ type: T.Type) throws -> T { try T(from: self) }

    private func number<T: LosslessStringConvertible>(_ type: T.Type) throws -> T {
        guard let value = T(text.trimmingCharacters(in: .whitespaces)) else { throw mismatch(type, "'\(text.prefix(40))' is not a number") }
        return value
    }
    /// Parsed as text, so an out-of-range value is an error rather than a trap on conversion.
    private func integer<T: FixedWidthInteger>(_ type: T.Type) throws -> T {
        guard let value = T(text.trimmingCharacters(in: .whitespaces)) else {
            throw mismatch(type, "'\(text.prefix(40))' is not a whole number in \(T.min)…\(T.max)")
        }
        return value
    }
    private func mismatch(_ type: Any.Type, _ description: String) -> DecodingError {
        .typeMismatch(type, .init(codingPath: codingPath, debugDescription: description))
    }
}

private struct ListContainer: UnkeyedDecodingContainer {
    let items: [String]
    let codingPath: [any CodingKey]
    var currentIndex = 0
    var count: Int? { items.count }
    var isAtEnd: Bool { currentIndex >= items.count }

    init(items: [String], codingPath: [any CodingKey]) {
        self.items = items
        self.codingPath = codingPath
    }

    mutating func decodeNil() throws -> Bool { false }
    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(type, .init(codingPath: codingPath, debugDescription: "the list has no more items"))
        }
        defer { currentIndex += 1 }
        return try T(
            from: ValueDecoder(
                text: items[currentIndex].trimmingCharacters(in: .whitespaces), codingPath: codingPath + [QueryKey(intValue: currentIndex)])
        )
    }
    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        throw DecodingError.typeMismatch(
            [String: Any].self, .init(codingPath: codingPath, debugDescription: "a list item is not an object"))
    }
    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        throw DecodingError.typeMismatch([Any].self, .init(codingPath: codingPath, debugDescription: "lists do not nest"))
    }
    mutating func superDecoder() throws -> any Decoder {
        ValueDecoder(text: items[currentIndex], codingPath: codingPath)
    }
}
