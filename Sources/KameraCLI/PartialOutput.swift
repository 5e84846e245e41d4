import Foundation
import Kamera

/// A file written under a hidden name beside its final one and renamed into place only when
/// complete: an interrupted, failed or killed run never leaves a half-written file under the
/// name the user asked for (nor replaces a good one).
final class PartialOutput {
    /// The final location.
    let final: URL
    /// Where the file is written meanwhile: `.NAME.kamera-partial-PID.EXT` in the same folder
    /// (same file system, so the rename is atomic; same extension, so writers pick the format).
    let url: URL
    private var committed = false

    init(final path: String) {
        final = URL(fileURLWithPath: path)
        let name = ".\(final.deletingPathExtension().lastPathComponent).kamera-partial-\(getpid())"
        url = final.deletingLastPathComponent().appendingPathComponent(name).appendingPathExtension(final.pathExtension)
    }

    /// Moves the finished file to its final name, replacing what was there.
    /// - Throws: `writeFailed` when the rename fails.
    func commit() throws {
        guard rename(url.path, final.path) == 0 else {
            let code = errno
            throw KameraError.writeFailed(path: final.path, errno: code, reason: String(cString: strerror(code)))
        }
        committed = true
    }

    /// Removes the partial file unless it was committed.
    func discard() {
        if !committed { try? FileManager.default.removeItem(at: url) }
    }

    deinit { discard() }
}
