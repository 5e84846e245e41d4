import Foundation
import Logging
import Synchronization

/// swift-log's handler for `kamera serve`: each entry one line on standard error, as text or
/// JSON (`LogFormat`), written whole under a lock so lines from different threads never mix.
struct ServerLogHandler: LogHandler {
    let label: String
    let format: LogFormat
    var logLevel: Logger.Level
    var metadata: Logger.Metadata = [:]

    private static let output = Mutex(())

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        let (level, message) = (event.level, event.message)
        let all = metadata.merging(event.metadata ?? [:]) { _, new in new }
        let time = Date().formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
        let text: String
        switch format {
        case .text:
            let pairs = all.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
            text = "\(time) \(level) \(label): \(message)\(pairs.isEmpty ? "" : " " + pairs)\n"
        case .json:
            var object: [String: Any] = ["time": time, "level": level.rawValue, "label": label, "message": message.description]
            for (key, value) in all where object[key] == nil { object[key] = Self.json(value) }
            let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data()
            text = String(decoding: data, as: UTF8.self) + "\n"
        }
        Self.output.withLock { _ in FileHandle.standardError.write(Data(text.utf8)) }
    }

    private static func json(_ value: Logger.MetadataValue) -> Any {
        switch value {
        case .string(let string): string
        case .stringConvertible(let convertible):
            // Numbers stay numbers, so a collector can sum and compare them.
            (convertible as? Int).map { $0 as Any } ?? (convertible as? Double).map { $0 as Any } ?? convertible.description
        case .array(let array): array.map(json)
        case .dictionary(let dictionary): dictionary.mapValues(json)
        }
    }
}
