import Foundation
import Kamera
import Synchronization

/// Standard output and error written with `write(2)` and checked. `print` and
/// `FileHandle.write(_:)` cannot report a full disk or a closed descriptor (`print` drops the
/// error, Foundation's `write` traps), so a command writing to `/dev/full` would exit 0 with
/// its output cut, or crash. Every command writes its results through here instead.
enum StandardStreams {
    /// Writes all of `text` to standard output or throws `KameraError.writeFailed`.
    static func output(_ text: String) throws {
        try write(Array(text.utf8), to: STDOUT_FILENO, name: "standard output")
    }

    /// Writes `bytes` to standard output (binary results such as `-o -`).
    static func output(bytes: [UInt8]) throws {
        try write(bytes, to: STDOUT_FILENO, name: "standard output")
    }

    /// Writes `text` and a newline to standard output.
    static func outputLine(_ text: String) throws {
        try output(text + "\n")
    }

    /// Progress and messages on standard error. Best effort: a closed stderr must not turn a
    /// finished job into a failure. Ends an open progress line first.
    static func error(_ text: String) {
        let prefix = progressLineOpen.exchange(false, ordering: .relaxed) ? "\n" : ""
        try? write(Array((prefix + text).utf8), to: STDERR_FILENO, name: "standard error")
    }

    /// A progress line on standard error, rewritten in place (`\r`); the next `error` message
    /// starts on a line of its own.
    static func progress(_ text: String) {
        progressLineOpen.store(true, ordering: .relaxed)
        // Clear the rest of the old line on a terminal; logs get no escape codes.
        let clear = isTerminal(STDERR_FILENO) ? "\u{1B}[K" : ""
        try? write(Array(("\r" + text + clear).utf8), to: STDERR_FILENO, name: "standard error")
    }

    /// Ends an open progress line (its last state stays on screen).
    static func endProgress() {
        if progressLineOpen.exchange(false, ordering: .relaxed) { try? write(Array("\n".utf8), to: STDERR_FILENO, name: "standard error") }
    }

    private static let progressLineOpen = Atomic<Bool>(false)

    /// True when the descriptor is a terminal (progress bars, prompts).
    static func isTerminal(_ descriptor: Int32) -> Bool { isatty(descriptor) == 1 }

    /// Writes every byte, retrying short writes and EINTR.
    static func write(_ bytes: [UInt8], to descriptor: Int32, name: String) throws {
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

/// A text file written line by line with every write checked (`scan --events`): a full disk
/// is an error the command reports, not a trap inside Foundation.
final class CheckedFile {
    let path: String
    private var descriptor: Int32

    /// Creates or truncates `path`; `appending` keeps what is there and writes after it.
    init(creating path: String, appending: Bool = false) throws {
        self.path = path
        descriptor = open(path, O_WRONLY | O_CREAT | O_CLOEXEC | (appending ? O_APPEND : O_TRUNC), 0o644)
        guard descriptor >= 0 else {
            throw KameraError.writeFailed(path: path, reason: String(cString: strerror(errno)))
        }
    }

    func write(_ text: String) throws {
        try StandardStreams.write(Array(text.utf8), to: descriptor, name: path)
    }

    /// Flushes to disk and closes; an error here (NFS, quota) is still an error.
    func close() throws {
        guard descriptor >= 0 else { return }
        defer { descriptor = -1 }
        let synced = fsync(descriptor) == 0 || errno == EINVAL
        let failure = errno
        guard Foundation.close(descriptor) == 0, synced else {
            throw KameraError.writeFailed(path: path, reason: String(cString: strerror(synced ? errno : failure)))
        }
    }

    deinit { if descriptor >= 0 { Foundation.close(descriptor) } }
}
