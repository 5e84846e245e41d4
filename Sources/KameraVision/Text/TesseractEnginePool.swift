import Foundation
import KameraCore
import Synchronization

/// Keeps initialised Tesseract engines for reuse: each concurrent caller borrows its own
/// engine, so no two threads share one, and none is initialised per image.
final class TesseractEnginePool: Sendable {
    static let shared = TesseractEnginePool()

    /// Ends every idle engine.
    func drain() {
        idle.withLock { $0.engines.removeAll() }
    }

    private struct Idle: @unchecked Sendable {
        // Engines are only touched by the one caller that borrowed them.
        var engines: [TesseractEngine.Key: [TesseractEngine]] = [:]
    }
    private let idle = Mutex(Idle())
    private let created = Mutex([TesseractEngine.Key: Int]())

    /// How many engines this pool has initialised for `key` (tests check that engines are reused).
    func createdCount(for key: TesseractEngine.Key) -> Int { created.withLock { $0[key, default: 0] } }

    /// Runs `body` with an engine for `key`, creating one only if none is idle.
    func withEngine<R>(_ key: TesseractEngine.Key, _ body: (TesseractEngine) throws -> R) throws -> R {
        let borrowed = idle.withLock { $0.engines[key]?.popLast() }
        let engine =
            try borrowed
            ?? {
                let fresh = try TesseractEngine(key)
                created.withLock { $0[key, default: 0] += 1 }
                return fresh
            }()
        defer {
            let returned = engine
            idle.withLock { state in
                // Keep at most a few per key: one per core is what concurrency can use.
                if state.engines[key, default: []].count < 8 { state.engines[key, default: []].append(returned) }
            }
        }
        return try body(engine)
    }
}
