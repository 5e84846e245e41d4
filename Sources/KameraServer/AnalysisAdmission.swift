import Foundation
import Kamera
import Synchronization

/// Admits CPU-heavy work (detection, encoding) to Kamera's analysis threads — never the
/// cooperative pool or the event loops — up to a fixed number of slots, running or waiting,
/// and refuses the rest at once: a saturated server answers 503 or drops a live frame
/// instead of queueing without bound.
final class AnalysisAdmission: Sendable {
    let slots: Int
    private let used = Mutex(0)

    init(slots: Int) {
        self.slots = slots
    }

    /// Slots taken now.
    var inUse: Int { used.withLock { $0 } }

    /// Runs `work` on an analysis thread, or returns nil at once when every slot is taken.
    func runIfFree<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T? {
        guard acquire() else { return nil }
        defer { release() }
        return try await AnalysisExecutor.run(work)
    }

    /// Runs `work` on an analysis thread; throws `APIError.busy` when every slot is taken and
    /// `APIError.timedOut` when it takes longer than `timeout` seconds. A timed-out analysis
    /// cannot be interrupted: it keeps its slot until it ends, so the server does not take on
    /// more than it can do.
    func run<T: Sendable>(timeout: Double, _ work: @escaping @Sendable () throws -> T) async throws -> T {
        guard acquire() else { throw APIError.busy() }
        let outcome = FirstOutcome<T>()
        return try await withCheckedThrowingContinuation { continuation in
            outcome.wait(with: continuation)
            let timer = Task {
                try await Task.sleep(for: .seconds(timeout))
                outcome.resolve(.failure(APIError.timedOut(after: timeout)))
            }
            Task {
                let result = await Result(catching: { try await AnalysisExecutor.run(work) })
                self.release()
                timer.cancel()
                outcome.resolve(result)
            }
        }
    }

    private func acquire() -> Bool {
        used.withLock { count in
            guard count < slots else { return false }
            count += 1
            return true
        }
    }

    private func release() {
        used.withLock { $0 -= 1 }
    }
}

/// Resumes a continuation with whichever outcome comes first (the work or its timeout).
private final class FirstOutcome<T: Sendable>: Sendable {
    private let state = Mutex<CheckedContinuation<T, any Error>?>(nil)

    func wait(with continuation: CheckedContinuation<T, any Error>) {
        state.withLock { $0 = continuation }
    }

    func resolve(_ result: Result<T, any Error>) {
        let continuation = state.withLock { current -> CheckedContinuation<T, any Error>? in
            defer { current = nil }
            return current
        }
        continuation?.resume(with: result)
    }
}

extension Result where Failure == any Error {
    init(catching body: () async throws -> Success) async {
        do { self = .success(try await body()) } catch { self = .failure(error) }
    }
}
