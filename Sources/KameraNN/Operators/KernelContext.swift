import CKameraNNKernels
import Dispatch

/// What a planned kernel runs against: the session's arena, the network's packed
/// weights and the session's thread count.
struct KernelContext: @unchecked Sendable {
    // Raw pointers cross into `parallelRows`' concurrent closures; each range writes disjoint
    // rows, and the memory outlives the call (owned by the session and the network).
    let arena: UnsafeMutablePointer<Float>
    let weights: UnsafeMutablePointer<Float>
    let threads: Int

    /// The C form of a planned activation (PReLU's alpha points into the weights).
    func activation(_ planned: PlannedActivation) -> knn_activation {
        knn_activation(
            kind: planned.kind, alpha: planned.alpha.map { UnsafePointer(weights + $0) }, scale: planned.scale, shift: planned.shift)
    }

    /// Splits `rows` into at most `threads` contiguous ranges run concurrently.
    func parallelRows(_ rows: Int, minimumPerThread: Int, _ body: @Sendable (Int, Int) -> Void) {
        let parts = min(threads, max(1, rows / max(minimumPerThread, 1)))
        if parts <= 1 { body(0, rows); return }
        DispatchQueue.concurrentPerform(iterations: parts) { part in
            body(rows * part / parts, rows * (part + 1) / parts)
        }
    }
}
