import KameraCore

/// Reads Protocol Buffers' wire format (what an `.onnx` file is) field by field, every length
/// and varint checked against the bytes there are, so a truncated or hostile file is a typed
/// error and never a trap or a huge allocation. Only what ONNX models use: varints, 32- and
/// 64-bit fixed values, length-delimited fields (messages, strings, packed arrays).
struct ProtobufReader {
    /// One field: its number and its value by wire type.
    enum Value {
        case varint(UInt64)
        case fixed64(UInt64)
        case bytes(Range<Int>)
        case fixed32(UInt32)
    }

    let bytes: [UInt8]
    let path: String
    private(set) var position: Int
    let end: Int

    init(bytes: [UInt8], path: String) {
        (self.bytes, self.path, position, end) = (bytes, path, 0, bytes.count)
    }

    /// A reader over a nested message's bytes.
    init(_ parent: ProtobufReader, range: Range<Int>) {
        (bytes, path, position, end) = (parent.bytes, parent.path, range.lowerBound, range.upperBound)
    }

    func fail(_ reason: String) -> KameraError { .invalidModel(path: path, reason: reason) }

    var isAtEnd: Bool { position >= end }

    /// The next field, or nil at the end of the message.
    mutating func next() throws -> (field: Int, value: Value)? {
        guard !isAtEnd else { return nil }
        let key = try varint()
        let field = Int(key >> 3)
        guard field > 0, field < 1 << 29 else { throw fail("invalid field number at byte \(position)") }
        switch key & 7 {
        case 0: return (field, .varint(try varint()))
        case 1: return (field, .fixed64(try fixed(8)))
        case 2:
            let length = try varint()
            guard length <= UInt64(end - position) else { throw fail("field \(field) runs past the end of its message") }
            let range = position..<(position + Int(length))
            position += Int(length)
            return (field, .bytes(range))
        case 5: return (field, .fixed32(UInt32(try fixed(4))))
        case let type: throw fail("unsupported wire type \(type) for field \(field)")
        }
    }

    mutating func varint() throws -> UInt64 {
        var result: UInt64 = 0
        for shift in stride(from: 0, to: 64, by: 7) {
            guard position < end else { throw fail("truncated varint") }
            let byte = bytes[position]
            position += 1
            result |= UInt64(byte & 0x7f) << UInt64(shift)
            if byte & 0x80 == 0 { return result }
        }
        throw fail("varint longer than 10 bytes")
    }

    private mutating func fixed(_ count: Int) throws -> UInt64 {
        guard end - position >= count else { throw fail("truncated fixed-size value") }
        let value = (0..<count).reduce(UInt64(0)) { $0 | UInt64(bytes[position + $1]) << UInt64(8 * $1) }
        position += count
        return value
    }

    /// The UTF-8 text of a length-delimited field.
    func string(_ range: Range<Int>) -> String { String(decoding: bytes[range], as: UTF8.self) }

    /// A packed array of varints (or one unpacked value), as signed 64-bit integers.
    func int64s(_ value: Value) throws -> [Int64] {
        switch value {
        case .varint(let v): return [Int64(bitPattern: v)]
        case .bytes(let range):
            var reader = ProtobufReader(self, range: range)
            var values: [Int64] = []
            while !reader.isAtEnd { values.append(Int64(bitPattern: try reader.varint())) }
            return values
        default: throw fail("expected integers")
        }
    }

    /// A packed array of 32-bit floats (or one unpacked value).
    func floats(_ value: Value) throws -> [Float] {
        switch value {
        case .fixed32(let v): return [Float(bitPattern: v)]
        case .bytes(let range):
            guard range.count % 4 == 0 else { throw fail("packed floats of \(range.count) bytes") }
            return Self.littleEndianFloats(bytes[range])
        default: throw fail("expected floats")
        }
    }

    /// Little-endian IEEE floats from raw bytes.
    static func littleEndianFloats(_ slice: ArraySlice<UInt8>) -> [Float] {
        let base = slice.startIndex
        return (0..<(slice.count / 4)).map { i in
            let at = base + 4 * i
            let bits = UInt32(slice[at]) | UInt32(slice[at + 1]) << 8 | UInt32(slice[at + 2]) << 16 | UInt32(slice[at + 3]) << 24
            return Float(bitPattern: bits)
        }
    }
}
