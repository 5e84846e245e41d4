/// Reads FlexBuffers, the schemaless format custom TFLite operators keep their options in
/// (MediaPipe's `Landmarks2TransformMatrix` stores a map of numbers and index lists). Only what
/// options need: maps with string keys, integers, floats, booleans and vectors of numbers.
/// Every offset and width is checked, so a corrupt model is an error, never a crash.
struct FlexBufferReader {
    /// Why a FlexBuffer could not be read.
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// One value: where its data starts, the width of its slot in the parent, the width of
    /// its own elements (for vectors and maps) and its FlexBuffers type.
    struct Value {
        let reader: FlexBufferReader
        let position: Int
        let slotWidth: Int
        let elementWidth: Int
        let type: Int
    }

    let bytes: [UInt8]

    // FlexBuffers type codes (flexbuffers.h `Type`).
    static let int = 1, uint = 2, float = 3, key = 4, string = 5
    static let indirectInt = 6, indirectUInt = 7, indirectFloat = 8, map = 9, vector = 10
    static let vectorInt = 11, vectorUInt = 12, vectorFloat = 13, vectorKey = 14, bool = 26

    /// The root value: the last byte is the root's width, the one before its packed type.
    func root() throws -> Value {
        guard bytes.count >= 3 else { throw Failure(description: "FlexBuffer of \(bytes.count) bytes is too short") }
        let width = Int(bytes[bytes.count - 1])
        let packed = Int(bytes[bytes.count - 2])
        guard [1, 2, 4, 8].contains(width), bytes.count - 2 - width >= 0 else {
            throw Failure(description: "FlexBuffer root width \(width) is invalid")
        }
        return try value(at: bytes.count - 2 - width, slotWidth: width, packed: packed)
    }

    /// The value in a slot of `slotWidth` bytes at `slot`, of packed type `packed`: inline
    /// scalars are read in place, everything else through the backwards offset stored there.
    func value(at slot: Int, slotWidth: Int, packed: Int) throws -> Value {
        let type = packed >> 2
        let elementWidth = 1 << (packed & 3)
        switch type {
        case Self.int, Self.uint, Self.float, Self.bool, 0:
            return Value(reader: self, position: slot, slotWidth: slotWidth, elementWidth: slotWidth, type: type)
        default:
            let offset = try unsigned(at: slot, width: slotWidth)
            guard offset <= UInt64(slot) else { throw Failure(description: "FlexBuffer offset \(offset) points before the start") }
            return Value(reader: self, position: slot - Int(offset), slotWidth: slotWidth, elementWidth: elementWidth, type: type)
        }
    }

    func unsigned(at position: Int, width: Int) throws -> UInt64 {
        guard position >= 0, [1, 2, 4, 8].contains(width), position + width <= bytes.count else {
            throw Failure(description: "FlexBuffer read of \(width) bytes at \(position) is out of range")
        }
        return (0..<width).reduce(UInt64(0)) { $0 | UInt64(bytes[position + $1]) << (8 * $1) }
    }

    func signed(at position: Int, width: Int) throws -> Int64 {
        let raw = try unsigned(at: position, width: width)
        let shift = UInt64(64 - 8 * width)
        return Int64(bitPattern: raw << shift) >> Int64(shift)
    }

    func floating(at position: Int, width: Int) throws -> Double {
        switch width {
        case 4: Double(Float(bitPattern: UInt32(try unsigned(at: position, width: 4))))
        case 8: Double(bitPattern: try unsigned(at: position, width: 8))
        default: throw Failure(description: "FlexBuffer float of \(width) bytes")
        }
    }

    /// A vector's (or map's) element count, stored in the slot before its first element.
    func count(before position: Int, width: Int) throws -> Int {
        let count = try unsigned(at: position - width, width: width)
        guard count <= UInt64(bytes.count) else { throw Failure(description: "FlexBuffer vector of \(count) elements") }
        return Int(count)
    }

    /// The NUL-terminated key at `position`.
    func key(at position: Int) throws -> String {
        guard position >= 0, position < bytes.count, let end = bytes[position...].firstIndex(of: 0) else {
            throw Failure(description: "FlexBuffer key at \(position) is not terminated")
        }
        return String(decoding: bytes[position..<end], as: UTF8.self)
    }
}

extension FlexBufferReader.Value {
    typealias Reader = FlexBufferReader

    /// The value as an integer (an int, uint, bool, or a float with an integral value).
    func integer() throws -> Int {
        switch type {
        case Reader.int: return Int(try reader.signed(at: position, width: slotWidth))
        case Reader.indirectInt: return Int(try reader.signed(at: position, width: elementWidth))
        case Reader.uint, Reader.bool:
            let value = try reader.unsigned(at: position, width: slotWidth)
            guard value <= UInt64(Int.max) else { throw Reader.Failure(description: "FlexBuffer integer \(value) is too large") }
            return Int(value)
        default:
            let value = try number()
            guard value.rounded() == value, abs(value) < 1e15 else {
                throw Reader.Failure(description: "FlexBuffer value \(value) is not an integer")
            }
            return Int(value)
        }
    }

    /// The value as a number.
    func number() throws -> Double {
        switch type {
        case Reader.float: try reader.floating(at: position, width: slotWidth)
        case Reader.indirectFloat: try reader.floating(at: position, width: elementWidth)
        case Reader.int, Reader.indirectInt, Reader.uint, Reader.bool: Double(try integer())
        default: throw Reader.Failure(description: "FlexBuffer value of type \(type) is not a number")
        }
    }

    /// The elements of a vector of numbers (typed or untyped) as integers.
    func integers() throws -> [Int] {
        let count = try reader.count(before: position, width: elementWidth)
        switch type {
        case Reader.vectorInt:
            return try (0..<count).map { Int(try reader.signed(at: position + $0 * elementWidth, width: elementWidth)) }
        case Reader.vectorUInt:
            return try (0..<count).map { Int(try reader.unsigned(at: position + $0 * elementWidth, width: elementWidth)) }
        case Reader.vector:
            return try (0..<count).map { try element($0, count: count).integer() }
        default: throw Reader.Failure(description: "FlexBuffer value of type \(type) is not a vector of integers")
        }
    }

    /// Element `index` of an untyped vector or map (their type bytes follow the elements).
    private func element(_ index: Int, count: Int) throws -> Reader.Value {
        let typeAt = position + count * elementWidth + index
        guard typeAt < reader.bytes.count else { throw Reader.Failure(description: "FlexBuffer element type out of range") }
        return try reader.value(at: position + index * elementWidth, slotWidth: elementWidth, packed: Int(reader.bytes[typeAt]))
    }

    /// A map's entries by key.
    func map() throws -> [String: Reader.Value] {
        guard type == Reader.map else { throw Reader.Failure(description: "FlexBuffer value of type \(type) is not a map") }
        let width = elementWidth
        let count = try reader.count(before: position, width: width)
        // The keys vector: an offset and its width sit in the two slots before the count.
        let keysSlot = position - 3 * width
        let keysOffset = try reader.unsigned(at: keysSlot, width: width)
        guard keysOffset <= UInt64(keysSlot) else { throw Reader.Failure(description: "FlexBuffer map keys offset out of range") }
        let keys = keysSlot - Int(keysOffset)
        let keyWidth = Int(try reader.unsigned(at: position - 2 * width, width: width))
        guard try reader.count(before: keys, width: keyWidth) == count else {
            throw Reader.Failure(description: "FlexBuffer map has \(count) values but a different number of keys")
        }
        var entries: [String: Reader.Value] = [:]
        for i in 0..<count {
            let slot = keys + i * keyWidth
            let offset = try reader.unsigned(at: slot, width: keyWidth)
            guard offset <= UInt64(slot) else { throw Reader.Failure(description: "FlexBuffer key offset out of range") }
            entries[try reader.key(at: slot - Int(offset))] = try element(i, count: count)
        }
        return entries
    }
}
