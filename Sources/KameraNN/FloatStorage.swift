/// A 64-byte aligned block of floats owned by one object and freed with it. Used for packed
/// weights (shared, read-only after load) and for a session's activation arena.
final class FloatStorage: @unchecked Sendable {
    // @unchecked: the network's weights are written once during init and only read after,
    // and a session's arena is used by that session alone.
    let pointer: UnsafeMutablePointer<Float>
    let count: Int

    init(count: Int) {
        self.count = count
        let raw = UnsafeMutableRawPointer.allocate(byteCount: max(count, 1) * MemoryLayout<Float>.stride, alignment: 64)
        pointer = raw.initializeMemory(as: Float.self, repeating: 0, count: max(count, 1))
    }

    deinit { UnsafeMutableRawPointer(pointer).deallocate() }
}
