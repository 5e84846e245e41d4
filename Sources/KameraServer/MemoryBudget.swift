import Foundation
import Kamera
import Synchronization

/// Bytes of request bodies and decoded pixels in flight over the whole server, bounded: each
/// upload reserves its declared size before it is read and its decoded size before it is
/// decoded, and gets 503 when the budget is spent, so forty concurrent 31 MB uploads or eight
/// 49-megapixel PNGs wait their turn instead of taking the server's memory to gigabytes.
final class MemoryBudget: Sendable {
    /// What one request holds; released when it ends (or is dropped).
    final class Reservation: Sendable {
        private let budget: MemoryBudget
        private let held = Mutex(0)

        fileprivate init(budget: MemoryBudget, bytes: Int) {
            self.budget = budget
            held.withLock { $0 = bytes }
        }

        /// Reserves `bytes` more.
        /// - Throws: `KameraError` with code `busy` when the budget cannot hold them.
        func grow(by bytes: Int) throws {
            guard budget.take(bytes) else { throw MemoryBudget.exhausted(bytes) }
            held.withLock { $0 += bytes }
        }

        deinit {
            budget.give(held.withLock { $0 })
        }
    }

    let capacity: Int
    private let used = Mutex(0)

    init(capacity: Int) {
        self.capacity = capacity
    }

    /// Bytes reserved now.
    var inUse: Int { used.withLock { $0 } }

    /// Reserves `bytes` for one request.
    /// - Throws: `KameraError` with code `busy` when the budget cannot hold them.
    func reserve(_ bytes: Int) throws -> Reservation {
        guard take(bytes) else { throw Self.exhausted(bytes) }
        return Reservation(budget: self, bytes: bytes)
    }

    private func take(_ bytes: Int) -> Bool {
        used.withLock { used in
            guard bytes >= 0, bytes <= capacity - used else { return false }
            used += bytes
            return true
        }
    }

    private func give(_ bytes: Int) {
        used.withLock { $0 -= bytes }
    }

    private static func exhausted(_ bytes: Int) -> KameraError {
        KameraError(
            code: .busy, reason: "the server has as much image data in flight as it allows (\(bytes / 1_048_576 + 1) MB more asked for)",
            hint: "retry after 1 s")
    }
}
