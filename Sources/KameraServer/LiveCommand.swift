import Foundation
import Kamera

/// A text message from the page on `/v1/live`: new options
/// (`{"faces":true,"landmarks":false,"codes":true,"text":false}`) or a recording command
/// (`{"record":"start","maxSeconds":30,"maxMegabytes":50}`, `{"record":"stop"}`).
enum LiveCommand {
    struct Record: Decodable, Sendable {
        enum Action: String, Decodable, Sendable { case start, stop }
        var record: Action
        var maxSeconds: Double?
        var maxMegabytes: Double?
    }

    case options(LiveOptions)
    case record(Record)

    init(json text: String) throws {
        let data = Data(text.utf8)
        let object = try JSONSerialization.jsonObject(with: data) as? [String: Any]
        if object?["record"] != nil {
            self = .record(try JSONDecoder().decode(Record.self, from: data))
        } else {
            self = .options(try JSONDecoder().decode(LiveOptions.self, from: data))
        }
    }
}
