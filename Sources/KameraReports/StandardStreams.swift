import Foundation
import Kamera
import Synchronization

/// Standard output and error written with `write(2)` and checked. `print` and
/// `FileHandle.write(_:)` cannot report a full disk or a closed descriptor (`print` drops the
/// error, Foundation's `write` traps), so a command writing to `/dev/full` would exit 0 with
/// its output cut, or crash. Every command writes its results through here instead.
package enum StandardStreams {
    /// Writes all of `text` to standard output or throws `KameraError.writeFailed`.
    package static func output(_ text: String) throws {
        try write(Array(text.utf8), to: STDOUT_FILENO, name: "standard output")
    }

    /// Writes `bytes` to standard output (binary results such as `-o -`).
    package static func output(bytes: [UInt8]) throws {
        try write(bytes, to: STDOUT_FILENO, name: "standard output")
    }

    /// Writes `text` and a newline to standard output.
    package static func outputLine(_ text: String) throws {
        try output(text + "\n")
    }

    /// Progress and messages on standard error. Best effort: a closed stderr must not turn a
    /// finished job into a failure. Ends an open progress line first.
    package static func error(_ text: String) {
        let prefix = progressLineOpen.exchange(false, ordering: .relaxed) ? "\n" : ""
        try? write(Array((prefix + text).utf8), to: STDERR_FILENO, name: "standard error")
    }

    /// A progress line on standard error, rewritten in place (`\r`); the next `error` message
    /// starts on a line of its own.
    package static func progress(_ text: String) {
        progressLineOpen.store(true, ordering: .relaxed)
        // Clear the rest of the old line on a terminal; logs get no escape codes.
        let clear = isTerminal(STDERR_FILENO) ? "\u{1B}[K" : ""
        try? write(Array(("\r" + text + clear).utf8), to: STDERR_FILENO, name: "standard error")
    }

    /// Ends an open progress line (its last state stays on screen).
    package static func endProgress() {
        if progressLineOpen.exchange(false, ordering: .relaxed) { try? write(Array("\n".utf8), to: STDERR_FILENO, name: "standard error") }
    }

    private static let progressLineOpen = Atomic<Bool>(false)

    /// True when the descriptor is a terminal (progress bars, prompts).
    package static func isTerminal(_ descriptor: Int32) -> Bool { isatty(descriptor) == 1 }

    /// Writes every byte, retrying short writes and EINTR.
    package static func write(_ bytes: [UInt8], to descriptor: Int32, name: String) throws {
        var offset = 0
        try bytes.withUnsafeBytes { raw in
            while offset < raw.count {
                let written = Foundation.write(descriptor, raw.baseAddress! + offset, raw.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    throw KameraError.writeFailed(path: name, reason: String(cString: strerror(errno)))
                }
                offset += written
            }
        }
    }
}
