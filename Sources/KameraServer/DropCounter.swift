import Synchronization

/// Frames dropped on one live connection (latest frame wins, or the server was saturated).
final class DropCounter: Sendable {
    private let value = Mutex(0)
    var count: Int { value.withLock { $0 } }
    func add() { value.withLock { $0 += 1 } }
}
