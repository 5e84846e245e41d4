import Foundation
import Synchronization

/// The pages watching one server camera, each with its stream of updates: analysed frames
/// as JPEGs with their results, and notices (a recording ended, the camera failed). A slow
/// watcher skips updates instead of holding the others back.
final class CameraWatchers: Sendable {
    enum Update: Sendable {
        case frame(id: UInt32, jpeg: Data, message: String)
        case notice(LiveMessage)
    }

    private let watchers = Mutex<[UUID: AsyncStream<Update>.Continuation]>([:])

    var count: Int { watchers.withLock { $0.count } }
    var isEmpty: Bool { watchers.withLock { $0.isEmpty } }

    /// A new watcher and its updates; end with `remove`.
    func add() -> (id: UUID, updates: AsyncStream<Update>) {
        let (updates, continuation) = AsyncStream.makeStream(of: Update.self, bufferingPolicy: .bufferingNewest(4))
        let id = UUID()
        watchers.withLock { $0[id] = continuation }
        return (id, updates)
    }

    func remove(_ id: UUID) {
        watchers.withLock { $0.removeValue(forKey: id) }?.finish()
    }

    func broadcast(_ update: Update) {
        for watcher in watchers.withLock({ Array($0.values) }) { watcher.yield(update) }
    }

    /// Sends `last` (if any) to every watcher and lets them all go: nothing more will come.
    func finishAll(with last: Update? = nil) {
        let all = watchers.withLock { w in
            defer { w = [:] }
            return Array(w.values)
        }
        for watcher in all {
            if let last { watcher.yield(last) }
            watcher.finish()
        }
    }
}
