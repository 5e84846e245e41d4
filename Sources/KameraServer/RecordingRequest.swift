import Foundation
import Kamera
import KameraReports

/// A page's or client's request to start or stop a recording, with limits it may lower for
/// this recording: `{"record":"start","maxSeconds":30,"maxMegabytes":50}` on a live socket,
/// `?maxSeconds=30&maxMegabytes=50` on `POST /v1/cameras/{index}/recording`.
struct RecordingRequest: Codable, Equatable, Sendable {
    enum Action: String, Codable, Sendable { case start, stop }

    var record: Action = .start
    /// Seconds, above 0; above the server's limit means the server's limit.
    var maxSeconds: Double?
    /// Megabytes (MiB), above 0; above the server's limit means the server's limit.
    var maxMegabytes: Double?

    enum CodingKeys: String, CodingKey, CaseIterable { case record, maxSeconds, maxMegabytes }

    init(record: Action = .start, maxSeconds: Double? = nil, maxMegabytes: Double? = nil) {
        (self.record, self.maxSeconds, self.maxMegabytes) = (record, maxSeconds, maxMegabytes)
    }

    init(from decoder: any Decoder) throws {
        try decoder.refuseUnknownKeys(CodingKeys.self)
        let values = try decoder.container(keyedBy: CodingKeys.self)
        record = try values.decodeIfPresent(Action.self, forKey: .record) ?? .start
        maxSeconds = try values.decodeIfPresent(Double.self, forKey: .maxSeconds)
        maxMegabytes = try values.decodeIfPresent(Double.self, forKey: .maxMegabytes)
    }

    /// Refuses limits that are not positive finite numbers (`1e13` megabytes is a number the
    /// server clamps, not a crash; `nan` or `-1` is an error).
    /// - Throws: `KameraError.invalidArgument`.
    func validate() throws {
        for (name, value) in [("maxSeconds", maxSeconds), ("maxMegabytes", maxMegabytes)] {
            if let value, !(value.isFinite && value > 0) {
                throw KameraError.invalidArgument("\(name) must be a positive number (got \(value))")
            }
        }
    }
}
