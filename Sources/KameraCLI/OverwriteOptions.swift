import ArgumentParser
import Foundation
import Kamera
import KameraReports

/// `-y` / `-n` as in ffmpeg: whether a command may replace files that already exist. Without
/// either, an interactive run asks; a script (stdin not a terminal) gets an error rather than
/// silently losing a file.
struct OverwriteOptions: ParsableArguments {
    @Flag(name: .customShort("y"), help: "Overwrite output files without asking.")
    var overwrite = false

    @Flag(name: .customShort("n"), help: "Never overwrite output files: stop if one exists.")
    var noOverwrite = false

    func validate() throws {
        if overwrite && noOverwrite { throw ValidationError("-y and -n exclude each other") }
    }

    /// Throws `KameraError.outputExists` unless `path` may be written. `-` (standard output)
    /// and paths that do not exist always may.
    func check(_ path: String) throws {
        guard path != "-", FileManager.default.fileExists(atPath: path), !overwrite else { return }
        if !noOverwrite, StandardStreams.isTerminal(STDIN_FILENO), StandardStreams.isTerminal(STDERR_FILENO) {
            StandardStreams.error("File '\(path)' already exists. Overwrite? [y/N] ")
            if let answer = readLine(), ["y", "yes"].contains(answer.trimmingCharacters(in: .whitespaces).lowercased()) { return }
        }
        throw KameraError.outputExists(path: path)
    }

    /// Checks every path before any work starts, so a batch does not stop half-way.
    func check(_ paths: [String]) throws {
        for path in paths { try check(path) }
    }
}
