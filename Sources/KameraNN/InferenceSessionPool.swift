import Foundation

/// Idle sessions of one network, handed out one per concurrent caller and returned after
/// use, so repeated requests (video frames) reuse arenas instead of allocating them.
public final class InferenceSessionPool: @unchecked Sendable {
    // @unchecked: `idle` is only touched under `lock`; a session is used by one caller at a time.
    public let network: NeuralNetwork
    private let lock = NSLock()
    private var idle: [InferenceSession] = []

    public init(network: NeuralNetwork) {
        self.network = network
    }

    /// Runs `body` with a session no one else is using.
    public func withSession<R>(_ body: (InferenceSession) throws -> R) rethrows -> R {
        lock.lock()
        let session = idle.popLast() ?? network.makeSession()
        lock.unlock()
        defer {
            lock.lock()
            idle.append(session)
            lock.unlock()
        }
        return try body(session)
    }
}
