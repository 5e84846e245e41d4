import Dispatch

/// Where the async API runs image analysis: Dispatch worker threads, not Swift's cooperative
/// pool. A face scan or a thorough code read holds a core for tens or hundreds of
/// milliseconds; on the cooperative pool (one thread per core) a few of them would stall
/// every other task in the process — a server's request handlers, timers, I/O. Dispatch
/// keeps its CPU-bound workers near one per core, so many concurrent calls queue here
/// instead of oversubscribing the machine.
public enum AnalysisExecutor {
    private static let marker = DispatchSpecificKey<Bool>()
    private static let queue: DispatchQueue = {
        let queue = DispatchQueue(label: "kamera.analysis", qos: .userInitiated, attributes: .concurrent)
        queue.setSpecific(key: marker, value: true)
        return queue
    }()

    /// Whether the calling code runs on an analysis thread.
    public static var isCurrent: Bool { DispatchQueue.getSpecific(key: marker) ?? false }

    /// Runs `work` on an analysis thread and resumes the caller with its result.
    public static func run<Result: Sendable>(_ work: @escaping @Sendable () throws -> Result) async throws -> Result {
        try await withCheckedThrowingContinuation { continuation in
            queue.async { continuation.resume(with: Swift.Result { try work() }) }
        }
    }
}
