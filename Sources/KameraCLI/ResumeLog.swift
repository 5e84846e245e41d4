import Foundation
import Kamera

/// A JSON Lines result file a batch appends to and can be restarted from (`--resume`): the
/// inputs it already holds are skipped. A line cut off by a kill is removed before appending,
/// so the file stays valid JSON Lines whatever happened to the previous run.
struct ResumeLog {
    /// The `input` of every complete line.
    let finishedInputs: Set<String>
    let path: String

    init(path: String) throws {
        self.path = path
        guard FileManager.default.fileExists(atPath: path) else {
            finishedInputs = []
            return
        }
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw KameraError.unreadableFile(path: path, reason: (error as NSError).localizedDescription)
        }
        var inputs = Set<String>()
        var validLength = 0
        var lineStart = data.startIndex
        while let newline = data[lineStart...].firstIndex(of: UInt8(ascii: "\n")) {
            let line = data[lineStart..<newline]
            if let object = try? JSONSerialization.jsonObject(with: line) as? [String: Any], let input = object["input"] as? String {
                inputs.insert(input)
            } else if !line.allSatisfy({ $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\r") }) {
                throw KameraError.invalidArgument(
                    "--resume \(path) has a line that is not a kamera result (line starting at byte \(lineStart))")
            }
            lineStart = newline + 1
            validLength = lineStart
        }
        if validLength < data.count {
            // The previous run was killed mid-line: drop the fragment, that file runs again.
            guard truncate(path, off_t(validLength)) == 0 else {
                throw KameraError.writeFailed(path: path, reason: String(cString: strerror(errno)))
            }
        }
        finishedInputs = inputs
    }

    /// The file opened for appending results.
    func open() throws -> CheckedFile {
        try CheckedFile(creating: path, appending: true)
    }
}
