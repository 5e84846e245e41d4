import Foundation
import KameraReports
import Synchronization

/// The progress line of a batch on a terminal: files done of all, rate, time left, failures.
/// Redrawn at most five times a second; silent when stderr is a file or pipe.
final class BatchProgress: Sendable {
    private struct State {
        var done = 0
        var failed = 0
        var lastDraw = 0.0
    }

    private let total: Int
    private let skipped: Int
    private let shown: Bool
    private let started = Date()
    private let state = Mutex(State())

    init(total: Int, skipped: Int, shown: Bool) {
        self.total = total
        self.skipped = skipped
        self.shown = shown
    }

    func advance(failed: Bool) {
        guard shown else { return }
        let line: String? = state.withLock { state in
            state.done += 1
            if failed { state.failed += 1 }
            let now = Date().timeIntervalSince(started)
            guard now - state.lastDraw >= 0.2 || state.done == total else { return nil }
            state.lastDraw = now
            return Self.describe(done: state.done, failed: state.failed, total: total, skipped: skipped, seconds: now)
        }
        if let line { StandardStreams.progress(line) }
    }

    func finish() {
        guard shown else { return }
        let line = state.withLock {
            Self.describe(
                done: $0.done, failed: $0.failed, total: total, skipped: skipped,
                seconds: Date().timeIntervalSince(started))
        }
        StandardStreams.progress(line)
        StandardStreams.endProgress()
    }

    private static func describe(done: Int, failed: Int, total: Int, skipped: Int, seconds: Double) -> String {
        let width = 24
        let filled = total == 0 ? width : width * done / total
        let bar = String(repeating: "█", count: filled) + String(repeating: "·", count: width - filled)
        let rate = Double(done) / max(seconds, 1e-3)
        let left = rate > 0 ? Double(total - done) / rate : 0
        var text = String(format: "detect %@ %d/%d files, %.1f/s, %@ left", bar, done, total, rate, duration(left))
        if failed > 0 { text += ", \(failed) failed" }
        if skipped > 0 { text += ", \(skipped) already done" }
        return text
    }

    private static func duration(_ seconds: Double) -> String {
        let s = Int(seconds.rounded())
        return s >= 3600 ? "\(s / 3600)h\(s % 3600 / 60)m" : s >= 60 ? "\(s / 60)m\(s % 60)s" : "\(s)s"
    }
}
