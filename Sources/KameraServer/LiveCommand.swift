import Foundation
import Kamera
import KameraReports

/// A text message from a page on a live socket: new analysis options
/// (`{"faces":true,"landmarks":false,"barcodes":true,"text":false}`, every `AnalysisOptions`
/// key, missing ones at their defaults) or a recording command (`RecordingRequest`).
enum LiveCommand: Equatable, Sendable {
    case options(AnalysisOptions)
    case record(RecordingRequest)

    /// What tells the two apart: a recording command has `record`.
    private struct Kind: Decodable {
        var record: RecordingRequest.Action?
    }

    /// Decodes and checks a message: options that cannot make a live configuration and
    /// recording limits out of range are refused here, before anything uses them.
    /// - Throws: `KameraError.invalidArgument` saying what is wrong.
    /// The largest text message read: options and commands are a few hundred bytes.
    static let maximumBytes = 64 << 10

    init(json text: String) throws {
        guard text.utf8.count <= Self.maximumBytes else {
            throw KameraError.invalidArgument("a text message is at most \(Self.maximumBytes) bytes (got \(text.utf8.count))")
        }
        let data = Data(text.utf8)
        let kind: Kind
        do {
            kind = try JSONDecoder().decode(Kind.self, from: data)
        } catch let error as DecodingError {
            throw KameraError.invalidArgument(
                #"a text message is options such as {"faces":true} or a command such as {"record":"start"}: "#
                    + error.readableDescription)
        }
        if kind.record != nil {
            let request: RecordingRequest
            do {
                request = try JSONDecoder().decode(RecordingRequest.self, from: data)
            } catch let error as DecodingError {
                throw KameraError.invalidArgument(error.readableDescription)
            }
            try request.validate()
            self = .record(request)
        } else {
            let options = try AnalysisOptions.decoding(json: text)
            _ = try options.liveConfiguration(frameBudget: nil)
            self = .options(options)
        }
    }
}
