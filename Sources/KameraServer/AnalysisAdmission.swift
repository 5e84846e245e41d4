import Foundation
import Kamera
import Synchronization

/// Admits CPU-heavy work (detection, encoding) to Kamera's analysis threads — never the
/// cooperative pool or the event loops — up to a fixed number of slots, running or waiting.
/// API calls beyond them are refused at once (503). Live frames wait for a slot in turn
/// instead, first come first served, so every connection gets its share: each connection
/// has at most one frame waiting (the newest; older ones are dropped), so the queue is
/// bounded by the number of connections.
final class AnalysisAdmission: Sendable {
    private struct State {
        var used = 0
        var waiting: [CheckedContinuation<Void, Never>] = []
    }

    let slots: Int
    private let state = Mutex(State())
    private let metrics: ServerMetrics?

    /// - Parameter metrics: where the queue's depth, the analyses running and each one's wait
    ///   for its turn are counted.
    init(slots: Int, metrics: ServerMetrics? = nil) {
        self.slots = slots
        self.metrics = metrics
    }

    /// Slots taken now.
    var inUse: Int { state.withLock { $0.used } }

    /// Runs `work` on an analysis thread, or returns nil at once when every slot is taken.
    func runIfFree<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T? {
        let enqueued = ContinuousClock.now
        guard acquire() else { return nil }
        defer { release() }
        return try await execute(work, since: enqueued)
    }

    /// Runs `work` on an analysis thread once a slot is free, after the callers that were
    /// waiting before it.
    func runInTurn<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        let enqueued = ContinuousClock.now
        metrics?.analysesWaiting.increment()
        if !acquire() {
            await withCheckedContinuation { continuation in
                // The slot may have been freed between the two locks: take it, or queue.
                let queued = state.withLock { state -> Bool in
                    if state.used < slots {
                        state.used += 1
                        return false
                    }
                    state.waiting.append(continuation)
                    return true
                }
                if !queued { continuation.resume() }
            }
        }
        defer { release() }
        return try await execute(work, since: enqueued, counted: true)
    }

    /// Runs `work` on an analysis thread; throws `APIError.busy` when every slot is taken and
    /// `APIError.timedOut` when it takes longer than `timeout` seconds. A timed-out analysis
    /// cannot be interrupted: it keeps its slot until it ends, so the server does not take on
    /// more than it can do.
    func run<T: Sendable>(timeout: Double, _ work: @escaping @Sendable () throws -> T) async throws -> T {
        let enqueued = ContinuousClock.now
        guard acquire() else { throw APIError.busy() }
        let outcome = FirstOutcome<T>()
        return try await withCheckedThrowingContinuation { continuation in
            outcome.wait(with: continuation)
            let timer = Task {
                try await Task.sleep(for: .seconds(timeout))
                outcome.resolve(.failure(APIError.timedOut(after: timeout)))
            }
            Task {
                let result = await Result(catching: { try await self.execute(work, since: enqueued) })
                self.release()
                timer.cancel()
                outcome.resolve(result)
            }
        }
    }

    /// `work` on an analysis thread, counted: waiting from `enqueued` (already counted as
    /// waiting when `counted`) until a thread takes it, then running.
    private func execute<T: Sendable>(
        _ work: @escaping @Sendable () throws -> T, since enqueued: ContinuousClock.Instant, counted: Bool = false
    ) async throws -> T {
        guard let metrics else { return try await AnalysisExecutor.run(work) }
        if !counted { metrics.analysesWaiting.increment() }
        return try await AnalysisExecutor.run {
            metrics.analysesWaiting.decrement()
            metrics.analysesRunning.increment()
            metrics.analysisStarted(after: ContinuousClock.now - enqueued)
            defer { metrics.analysesRunning.decrement() }
            return try work()
        }
    }

    private func acquire() -> Bool {
        state.withLock { state in
            guard state.used < slots else { return false }
            state.used += 1
            return true
        }
    }

    /// Hands the slot to the first waiting live frame, or frees it.
    private func release() {
        let next = state.withLock { state -> CheckedContinuation<Void, Never>? in
            if state.waiting.isEmpty {
                state.used -= 1
                return nil
            }
            return state.waiting.removeFirst()
        }
        next?.resume()
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
