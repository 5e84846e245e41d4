import KameraReports

/// Where `scan` and `track` write their JSON lines: the `--events` file, else standard output.
struct EventLines {
    private let file: CheckedFile?

    /// - Throws: when the file cannot be created.
    init(path: String?) throws {
        file = try path.map { try CheckedFile(creating: $0) }
    }

    func emit(_ line: String) throws {
        if let file { try file.write(line + "\n") } else { try StandardStreams.outputLine(line) }
    }

    /// Closes the file (what it reports, a full disk, surfaces here); standard output stays.
    func close() throws { try file?.close() }
}
