/// How `kamera serve` writes its log to standard error (`--log-format`, `KAMERA_LOG_FORMAT`).
public enum LogFormat: String, Sendable, CaseIterable, Codable {
    /// A line a person reads: time, level, message, then the metadata as `key=value`.
    case text
    /// One JSON object a line (`time`, `level`, `label`, `message` and the metadata's keys),
    /// for a log collector (Loki, Elasticsearch, Cloud Logging).
    case json
}
