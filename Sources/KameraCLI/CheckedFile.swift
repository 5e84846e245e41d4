import Foundation
import Kamera
import KameraReports

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
