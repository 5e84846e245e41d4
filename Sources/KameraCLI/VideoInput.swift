import Foundation
import Kamera

/// A video argument: a path, or `-` for standard input. Commands that read a stream from
/// start to end (`scan`, `record`) read standard input as it comes (`pipe:0`), so
/// `ffmpeg … -f matroska - | kamera scan -` runs live; commands that seek (`thumbnail`,
/// `track`) first copy it to a temporary file, so any container works, an MP4 with its index
/// at the end too.
enum VideoInput {
    /// What FFmpeg opens for a stream read in order.
    static func streamed(_ argument: String) -> String {
        argument == "-" ? "pipe:0" : argument
    }

    /// Runs `body` with a path that can be seeked: the argument itself, or standard input
    /// copied to a temporary file that is removed afterwards.
    /// - Throws: `KameraError` when standard input is empty or the copy cannot be written
    ///   (`diskFull` on a full disk), or what `body` throws.
    static func withSeekablePath<T>(_ argument: String, _ body: (String) throws -> T) throws -> T {
        guard argument == "-" else { return try body(argument) }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("kamera-stdin-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("stdin").path
        let output = open(path, O_WRONLY | O_CREAT | O_EXCL, 0o600)
        guard output >= 0 else { throw KameraError.writeFailed(path: path, errno: errno, reason: String(cString: strerror(errno))) }
        var total = 0
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        while true {
            let count = read(STDIN_FILENO, &buffer, buffer.count)
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            var written = 0
            while written < count {
                let step = buffer.withUnsafeBytes { write(output, $0.baseAddress! + written, count - written) }
                if step < 0, errno == EINTR { continue }
                guard step > 0 else {
                    let code = errno
                    close(output)
                    throw KameraError.writeFailed(path: path, errno: code, reason: String(cString: strerror(code)))
                }
                written += step
            }
            total += count
        }
        close(output)
        guard total > 0 else { throw KameraError.emptyInput(path: "standard input") }
        return try body(path)
    }
}
