import Foundation

/// Encodes `Encodable` records into a `JSONValue` with keys in the order they are encoded —
/// declaration order for synthesized conformances — so a record's declaration is its
/// documented JSON shape (Foundation's `JSONEncoder` on Linux does not keep key order).
/// Encoding the same key twice replaces the value in place; a type that encodes into its
/// encoder's keyed container after another type did extends the same object (flattening).
package enum JSONValueEncoder {
    package static func encode(_ value: some Encodable) throws -> JSONValue {
        let root = Node()
        try value.encode(to: NodeEncoder(node: root, codingPath: []))
        return root.value
    }
}

/// A value being built; containers write into it as encoding proceeds.
private final class Node {
    enum Content {
        case empty
        case object([(String, Node)])
        case array([Node])
        case scalar(JSONValue)
    }

    var content = Content.empty

    var value: JSONValue {
        switch content {
        case .empty: .null
        case .object(let members): .object(members.map { ($0.0, $0.1.value) })
        case .array(let items): .array(items.map(\.value))
        case .scalar(let value): value
        }
    }

    /// The child for `key`, created (in order) or reused.
    func member(_ key: String) -> Node {
        if case .object(let members) = content, let existing = members.first(where: { $0.0 == key }) {
            existing.1.content = .empty
            return existing.1
        }
        let child = Node()
        if case .object(var members) = content {
            members.append((key, child))
            content = .object(members)
        } else {
            content = .object([(key, child)])
        }
        return child
    }

    func appended() -> Node {
        let child = Node()
        if case .array(var items) = content {
            items.append(child)
            content = .array(items)
        } else {
            content = .array([child])
        }
        return child
    }

    /// Stores a value: scalars directly, anything else through its own `encode(to:)`.
    func store(_ value: some Encodable, codingPath: [any CodingKey]) throws {
        switch value {
        case let v as String: content = .scalar(.string(v))
        case let v as Bool: content = .scalar(.bool(v))
        case let v as Int: content = .scalar(.int(v))
        case let v as Double: content = .scalar(.number(v))
        case let v as Float: content = .scalar(.number(Double(v)))
        // Dates as ISO 8601 in UTC to the second, as JSONEncoder's `.iso8601` writes them.
        case let v as Date: content = .scalar(.string(v.ISO8601Format()))
        // Every other integer type; a 64-bit unsigned value beyond Int is written as a number.
        // (Without this case an integer type would encode itself through this container again,
        // forever.)
        case let v as any BinaryInteger: content = .scalar(Int(exactly: v).map(JSONValue.int) ?? .number(Double(v)))
        default: try value.encode(to: NodeEncoder(node: self, codingPath: codingPath))
        }
    }
}

private struct NodeEncoder: Encoder {
    let node: Node
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        if case .object = node.content {} else { node.content = .object([]) }
        return KeyedEncodingContainer(KeyedContainer<Key>(node: node, codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        if case .array = node.content {} else { node.content = .array([]) }
        return UnkeyedContainer(node: node, codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        SingleValueContainer(node: node, codingPath: codingPath)
    }
}

private struct KeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let node: Node
    let codingPath: [any CodingKey]

    mutating func encodeNil(forKey key: Key) throws { node.member(key.stringValue).content = .scalar(.null) }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        try node.member(key.stringValue).store(value, codingPath: codingPath + [key])
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type,
        forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
        NodeEncoder(node: node.member(key.stringValue), codingPath: codingPath + [key]).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        NodeEncoder(node: node.member(key.stringValue), codingPath: codingPath + [key]).unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder { NodeEncoder(node: node, codingPath: codingPath) }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        NodeEncoder(node: node.member(key.stringValue), codingPath: codingPath + [key])
    }
}

private struct UnkeyedContainer: UnkeyedEncodingContainer {
    let node: Node
    let codingPath: [any CodingKey]
    var count: Int {
        if case .array(let items) = node.content { return items.count }
        return 0
    }

    mutating func encodeNil() throws { node.appended().content = .scalar(.null) }

    mutating func encode<T: Encodable>(_ value: T) throws { try node.appended().store(value, codingPath: codingPath) }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        NodeEncoder(node: node.appended(), codingPath: codingPath).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        NodeEncoder(node: node.appended(), codingPath: codingPath).unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder { NodeEncoder(node: node.appended(), codingPath: codingPath) }
}

private struct SingleValueContainer: SingleValueEncodingContainer {
    let node: Node
    let codingPath: [any CodingKey]

    mutating func encodeNil() throws { node.content = .scalar(.null) }

    mutating func encode<T: Encodable>(_ value: T) throws { try node.store(value, codingPath: codingPath) }
}
