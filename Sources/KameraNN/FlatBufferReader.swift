import KameraCore

/// Bounds-checked access to a FlatBuffers buffer: every offset is validated before it is
/// followed, so a truncated or corrupt model is an error, never an out-of-bounds read.
struct FlatBufferReader {
    let bytes: [UInt8]
    let path: String

    func fail(_ reason: String) -> KameraError { .invalidModel(path: path, reason: reason) }

    func u8(_ at: Int) throws -> UInt8 {
        guard at >= 0, at < bytes.count else { throw fail("offset \(at) past the end of the file") }
        return bytes[at]
    }

    func u16(_ at: Int) throws -> UInt16 {
        guard at >= 0, at + 2 <= bytes.count else { throw fail("offset \(at) past the end of the file") }
        return UInt16(bytes[at]) | UInt16(bytes[at + 1]) << 8
    }

    func u32(_ at: Int) throws -> UInt32 {
        guard at >= 0, at + 4 <= bytes.count else { throw fail("offset \(at) past the end of the file") }
        return UInt32(bytes[at]) | UInt32(bytes[at + 1]) << 8 | UInt32(bytes[at + 2]) << 16 | UInt32(bytes[at + 3]) << 24
    }

    func i32(_ at: Int) throws -> Int32 { Int32(bitPattern: try u32(at)) }

    func u64(_ at: Int) throws -> UInt64 {
        UInt64(try u32(at)) | UInt64(try u32(at + 4)) << 32
    }

    /// The root table of the buffer.
    func root() throws -> FlatBufferTable {
        try FlatBufferTable(reader: self, position: Int(try u32(0)))
    }
}

/// One table: its position and its vtable of field offsets.
struct FlatBufferTable {
    let reader: FlatBufferReader
    let position: Int
    private let vtable: Int
    private let vtableSize: Int

    init(reader: FlatBufferReader, position: Int) throws {
        self.reader = reader
        self.position = position
        let vtable = position - Int(try reader.i32(position))
        self.vtable = vtable
        vtableSize = Int(try reader.u16(vtable))
        guard vtableSize >= 4, vtableSize % 2 == 0, vtable + vtableSize <= reader.bytes.count else {
            throw reader.fail("corrupt table at \(position)")
        }
    }

    /// The absolute position of field `index`, nil when absent (the field has its default).
    func fieldPosition(_ index: Int) throws -> Int? {
        let entry = 4 + 2 * index
        guard entry + 2 <= vtableSize else { return nil }
        let offset = Int(try reader.u16(vtable + entry))
        return offset == 0 ? nil : position + offset
    }

    /// A scalar field, or `value` when the field is absent.
    private func scalar<T>(_ index: Int, default value: T, _ read: (Int) throws -> T) throws -> T {
        guard let at = try fieldPosition(index) else { return value }
        return try read(at)
    }

    func int32(_ index: Int, default value: Int32 = 0) throws -> Int32 { try scalar(index, default: value, reader.i32) }
    func uint32(_ index: Int, default value: UInt32 = 0) throws -> UInt32 { try scalar(index, default: value, reader.u32) }
    func uint8(_ index: Int, default value: UInt8 = 0) throws -> UInt8 { try scalar(index, default: value, reader.u8) }
    func uint64(_ index: Int, default value: UInt64 = 0) throws -> UInt64 { try scalar(index, default: value, reader.u64) }

    func bool(_ index: Int) throws -> Bool { try uint8(index) != 0 }

    /// The target of an offset field (table, vector or string).
    private func indirect(_ index: Int) throws -> Int? {
        guard let at = try fieldPosition(index) else { return nil }
        return at + Int(try reader.u32(at))
    }

    func table(_ index: Int) throws -> FlatBufferTable? {
        guard let at = try indirect(index) else { return nil }
        return try FlatBufferTable(reader: reader, position: at)
    }

    /// A vector's element count and the position of its first element.
    func vector(_ index: Int, elementSize: Int) throws -> (count: Int, start: Int)? {
        guard let at = try indirect(index) else { return nil }
        let count = Int(try reader.u32(at))
        let start = at + 4
        guard count >= 0, start + count * elementSize <= reader.bytes.count else {
            throw reader.fail("vector of \(count) elements runs past the end of the file")
        }
        return (count, start)
    }

    func int32Vector(_ index: Int) throws -> [Int32] {
        guard let (count, start) = try vector(index, elementSize: 4) else { return [] }
        return try (0..<count).map { try reader.i32(start + 4 * $0) }
    }

    func tables(_ index: Int) throws -> [FlatBufferTable] {
        guard let (count, start) = try vector(index, elementSize: 4) else { return [] }
        return try (0..<count).map { i in
            let at = start + 4 * i
            return try FlatBufferTable(reader: reader, position: at + Int(try reader.u32(at)))
        }
    }

    func byteRange(_ index: Int) throws -> Range<Int>? {
        guard let (count, start) = try vector(index, elementSize: 1) else { return nil }
        return start..<(start + count)
    }

    func string(_ index: Int) throws -> String? {
        guard let range = try byteRange(index) else { return nil }
        return String(decoding: reader.bytes[range], as: UTF8.self)
    }
}
