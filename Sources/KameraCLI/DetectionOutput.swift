import ArgumentParser
import Foundation
import Kamera
import KameraReports

/// Where `kamera detect` writes its results, one file at a time as each finishes, so memory
/// stays flat for any number of files (only the table, which aligns its columns, waits for
/// all of them).
final class DetectionOutput {
    enum Format: String, CaseIterable, Sendable {
        /// One document, `{"results":[…]}`, streamed element by element.
        case json
        /// JSON Lines: one compact result object per line.
        case jsonl
        /// Aligned columns for reading.
        case table
    }

    private let format: Format
    private let file: CheckedFile?
    private var written = 0
    private var tableRows: [DetectionReport.FileResult] = []

    /// Writes to standard output, or appends to `file` (`--resume`).
    init(format: Format, file: CheckedFile? = nil) {
        self.format = format
        self.file = file
    }

    func write(_ result: DetectionReport.FileResult) throws {
        switch format {
        case .json:
            let value = try JSONValueEncoder.encode(result)
            try emit((written == 0 ? "{\n  \"results\": [\n" : ",\n") + "    " + value.rendered(indent: "    "))
        case .jsonl:
            try emit(try JSONValueEncoder.encode(result).compact() + "\n")
        case .table:
            tableRows.append(result)
        }
        written += 1
    }

    /// Closes the document (and flushes the file to disk).
    func finish() throws {
        switch format {
        case .json: try emit(written == 0 ? "{\n  \"results\": []\n}\n" : "\n  ]\n}\n")
        case .jsonl: break
        case .table: try emit(DetectionReport(results: tableRows).table() + "\n")
        }
        try file?.close()
    }

    private func emit(_ text: String) throws {
        if let file { try file.write(text) } else { try StandardStreams.output(text) }
    }
}

extension DetectionOutput.Format: ExpressibleByArgument {}
