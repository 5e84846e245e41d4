import Foundation
import KameraCore
import Synchronization

/// The lines a stream's text reader read lately, so that a line seen again — in the same place,
/// looking the same — is not read again: on a live camera most text stands still, and reading
/// a line (direction check and recognizer) costs more than finding it. A line is known again
/// when its corners lie within a quarter of its height of a remembered line's and a small
/// grey thumbnail of it differs by less than `sameLook` levels on average.
final class SceneLineMemory: Sendable {
    struct Entry: Sendable {
        var corners: Quad
        var thumbnail: [UInt8]
        /// Whether the line was read turned over, its readings and its columns' share.
        var flipped: Bool
        var readings: [CTCDecoder.Reading]
        var columnFraction: Double
        var lastUsed: Int
    }

    static let capacity = 32
    static let sameLook = 6.0
    static let thumbnailSize = (width: 64, height: 12)

    private struct State {
        var entries: [Entry] = []
        var clock = 0
    }

    private let state = Mutex(State())

    /// The remembered line matching `corners` and `thumbnail`, if any.
    func recall(_ corners: Quad, thumbnail: [UInt8]) -> Entry? {
        state.withLock { state in
            state.clock += 1
            let tolerance = 0.25 * max(1, hypot(corners.bottomLeft.x - corners.topLeft.x, corners.bottomLeft.y - corners.topLeft.y))
            guard
                let index = state.entries.firstIndex(where: { entry in
                    zip(entry.corners.corners, corners.corners).allSatisfy { hypot($0.x - $1.x, $0.y - $1.y) <= tolerance }
                        && Self.difference(entry.thumbnail, thumbnail) < Self.sameLook
                })
            else { return nil }
            state.entries[index].lastUsed = state.clock
            return state.entries[index]
        }
    }

    /// Remembers a line read, forgetting the least recently used beyond `capacity`.
    func remember(_ entry: Entry) {
        state.withLock { state in
            var entry = entry
            entry.lastUsed = state.clock
            state.entries.append(entry)
            if state.entries.count > Self.capacity {
                state.entries.remove(at: state.entries.indices.min { state.entries[$0].lastUsed < state.entries[$1].lastUsed }!)
            }
        }
    }

    static func difference(_ a: [UInt8], _ b: [UInt8]) -> Double {
        guard a.count == b.count, !a.isEmpty else { return .infinity }
        return Double(zip(a, b).reduce(0) { $0 + abs(Int($1.0) - Int($1.1)) }) / Double(a.count)
    }
}
