import KameraCore

/// A constant tensor stored sparse (TFLite's `SparsityParameters`: a traversal order over the
/// tensor's dimensions and its blocks, each level dense or compressed-sparse-row), made dense
/// when the model is read, so DENSIFY is only a copy. Follows TFLite's `FormatConverter`,
/// with every index checked: a hostile file is an error, never a write out of bounds.
struct SparseTensor {
    enum Level {
        case dense(size: Int)
        case sparse(segments: [Int], indices: [Int])
    }

    let shape: [Int]
    let traversalOrder: [Int]
    let blockMap: [Int]
    let levels: [Level]

    /// Reads the `SparsityParameters` table of a tensor of `shape`.
    init(_ table: FlatBufferTable, shape: [Int], fail: (String) -> KameraError) throws {
        self.shape = shape
        traversalOrder = try table.int32Vector(0).map(Int.init)
        blockMap = try table.int32Vector(1).map(Int.init)
        levels = try table.tables(2).map { metadata in
            if try metadata.uint8(0) == 0 { return .dense(size: Int(try metadata.int32(1))) }
            return .sparse(
                segments: try Self.indexVector(metadata, typeField: 2, valueField: 3, fail: fail),
                indices: try Self.indexVector(metadata, typeField: 4, valueField: 5, fail: fail))
        }
        let rank = shape.count
        guard traversalOrder.count == levels.count, traversalOrder.count == rank + blockMap.count,
            Set(traversalOrder) == Set(0..<traversalOrder.count), blockMap.allSatisfy({ (0..<rank).contains($0) })
        else { throw fail("sparse tensor: inconsistent traversal order \(traversalOrder) and block map \(blockMap)") }
    }

    /// A `SparseIndexVector` union: Int32Vector (1), Uint16Vector (2) or Uint8Vector (3), each
    /// a table whose field 0 holds the values.
    private static func indexVector(_ table: FlatBufferTable, typeField: Int, valueField: Int, fail: (String) -> KameraError) throws
        -> [Int]
    {
        let kind = try table.uint8(typeField)
        guard let values = try table.table(valueField) else { throw fail("sparse tensor: a sparse level without its index vector") }
        switch kind {
        case 1: return try values.int32Vector(0).map(Int.init)
        case 2:
            guard let (count, start) = try values.vector(0, elementSize: 2) else { return [] }
            return try (0..<count).map { Int(try values.reader.u16(start + 2 * $0)) }
        case 3:
            guard let range = try values.byteRange(0) else { return [] }
            return values.reader.bytes[range].map(Int.init)
        default: throw fail("sparse tensor: unknown index vector type \(kind)")
        }
    }

    /// The dense values (row-major over `shape`) of the stored `values`, zeros elsewhere.
    func densified(_ values: [Float], fail: (String) -> KameraError) throws -> [Float] {
        let rank = shape.count
        let blockSizes = (0..<blockMap.count).map { i -> Int in
            if case .dense(let size) = levels[rank + i] { return size }
            return 0
        }
        guard blockSizes.allSatisfy({ $0 > 0 }) else { throw fail("sparse tensor: a block dimension is not dense") }
        var dense = [Float](repeating: 0, count: shape.reduce(1, *))
        var indices = [Int](repeating: 0, count: levels.count)
        var next = 0
        func store() throws {
            var position = [Int](repeating: 0, count: rank)
            for level in 0..<rank { position[traversalOrder[level]] = indices[level] }
            for level in rank..<levels.count {
                let block = traversalOrder[level] - rank
                guard (0..<blockMap.count).contains(block) else { throw fail("sparse tensor: bad block index") }
                position[blockMap[block]] = position[blockMap[block]] * blockSizes[block] + indices[level]
            }
            var flat = 0
            for dimension in 0..<rank {
                guard (0..<shape[dimension]).contains(position[dimension]) else { throw fail("sparse tensor: index outside \(shape)") }
                flat = flat * shape[dimension] + position[dimension]
            }
            guard next < values.count else { throw fail("sparse tensor: fewer values than its indices address") }
            dense[flat] = values[next]
            next += 1
        }
        func populate(level: Int, previous: Int) throws {
            guard level < levels.count else { return try store() }
            switch levels[level] {
            case .dense(let size):
                guard size >= 0, size <= 1 << 20 else { throw fail("sparse tensor: dense level of \(size)") }
                for i in 0..<size {
                    indices[level] = i
                    try populate(level: level + 1, previous: previous * size + i)
                }
            case .sparse(let segments, let sparseIndices):
                guard previous + 1 < segments.count else { return }
                let (from, to) = (segments[previous], segments[previous + 1])
                guard from >= 0, from <= to, to <= sparseIndices.count else { throw fail("sparse tensor: bad segment \(from)…\(to)") }
                for i in from..<to {
                    indices[level] = sparseIndices[i]
                    try populate(level: level + 1, previous: i)
                }
            }
        }
        try populate(level: 0, previous: 0)
        guard next == values.count else { throw fail("sparse tensor: \(values.count) values, \(next) addressed") }
        return dense
    }
}
