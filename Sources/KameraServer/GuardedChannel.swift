import Hummingbird
import HummingbirdCore
import Logging
import NIOCore

/// A server child channel with a `FrontDoor` in front of another (Hummingbird's HTTP/1 with
/// WebSocket upgrade): the front door is the first handler of every connection.
struct GuardedChannel<Inner: ServerChildChannel>: ServerChildChannel {
    typealias Value = Inner.Value

    let inner: Inner
    let makeFrontDoor: @Sendable () -> FrontDoor

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        let added = channel.eventLoop.makeCompletedFuture {
            try channel.pipeline.syncOperations.addHandler(makeFrontDoor(), position: .first)
        }
        return added.flatMap { inner.setup(channel: channel, logger: logger) }
    }

    func handle(value: Value, logger: Logger) async {
        await inner.handle(value: value, logger: logger)
    }
}
