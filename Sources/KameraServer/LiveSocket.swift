import Foundation
import HummingbirdWebSocket
import Kamera
import KameraReports
import Logging
import NIOCore

/// `/v1/live`: the page streams camera frames, the server answers each analysed frame with a
/// JSON message (`LiveFrameResult`).
///
/// Client to server: binary messages, a 4-byte little-endian frame number then the JPEG, WebP
/// or PNG bytes; text messages set `LiveOptions` or start and stop a recording
/// (`LiveCommand`). Frames are analysed one at a time per connection; while one is being
/// analysed, only the newest waiting frame is kept (latest frame wins) and the client gets
/// `{"id":N,"skipped":true,"dropped":total}` for each frame replaced. When the server is
/// saturated, connections take turns for analysis slots (`AnalysisAdmission.runInTurn`),
/// so each slows down evenly and drops more frames instead of one starving. A frame that cannot be decoded
/// gets `{"id":N,"error":{…}}` and the stream goes on. A recording that ends is announced
/// as `{"recording":{…}}` (the entry `GET /v1/recordings` lists).
struct LiveSocket: Sendable {
    let admission: AnalysisAdmission
    let limits: RequestLimits
    let recordingLimits: RecordingLimits
    let library: ResultsLibrary
    let logger: Logger

    struct Frame: Sendable {
        var id: UInt32
        var image: Data
    }

    func run(inbound: WebSocketInboundStream, outbound: WebSocketOutboundWriter) async throws {
        let session = LiveSession(maximumPixelCount: limits.maximumPixelCount, logger: logger)
        let (frames, waiting) = AsyncStream.makeStream(of: Frame.self, bufferingPolicy: .bufferingNewest(1))
        let dropped = DropCounter()
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                for await frame in frames {
                    try await analyse(frame, session: session, dropped: dropped, outbound: outbound)
                }
                // The page went away: a recording in progress ends with what it has.
                let finished = try await AnalysisExecutor.run { session.closeRecording(.disconnected) }
                if let finished { try? await conclude(finished, outbound: nil) }
            }
            defer { waiting.finish() }
            for try await message in inbound.messages(maxSize: limits.maximumFrameBytes) {
                switch message {
                case .binary(let buffer):
                    guard buffer.readableBytes > 4, let id = buffer.getInteger(at: buffer.readerIndex, endianness: .little, as: UInt32.self)
                    else {
                        try await send(
                            error: APIError.badRequest("a frame is a 4-byte frame number then an image", hint: "see /openapi.json"),
                            id: nil,
                            outbound)
                        continue
                    }
                    let image = Data(buffer.readableBytesView.dropFirst(4))
                    if case .dropped(let replaced) = waiting.yield(Frame(id: id, image: image)) {
                        dropped.add()
                        try await outbound.write(.text(try LiveMessage.skipped(id: replaced.id, dropped: dropped.count).text()))
                    }
                case .text(let text):
                    try await command(text, session: session, outbound: outbound)
                }
            }
            waiting.finish()
            try await group.waitForAll()
        }
    }

    private func command(_ text: String, session: LiveSession, outbound: WebSocketOutboundWriter) async throws {
        let command: LiveCommand
        do {
            command = try LiveCommand(json: text)
        } catch let error as KameraError {
            try await send(error: APIError(error), id: nil, outbound)
            return
        }
        switch command {
        case .options(let options):
            session.update(options)
        case .record(let record) where record.record == .start:
            guard !session.isRecording else {
                try await send(
                    error: APIError(
                        .conflict, code: .alreadyRecording, message: "already recording", hint: #"send {"record":"stop"} first"#),
                    id: nil, outbound)
                return
            }
            do {
                // Listed before its first frame, so a crash cannot lose it.
                let entry = RecordingEntry.started(source: "browser")
                try await library.insert(entry)
                session.startRecording(id: entry.id, url: library.movieURL(entry), limits: try recordingLimits.lowered(to: record))
            } catch {
                try await send(error: library.apiError(error, logger: logger), id: nil, outbound)
            }
        case .record:
            session.stopRecording()
        }
    }

    private func analyse(_ frame: Frame, session: LiveSession, dropped: DropCounter, outbound: WebSocketOutboundWriter) async throws {
        let droppedSoFar = dropped.count
        let outcome: LiveSession.Outcome
        do {
            outcome = try await admission.runInTurn { try session.analyse(id: frame.id, image: frame.image, dropped: droppedSoFar) }
        } catch let error as KameraError {
            try await send(error: APIError(error), id: frame.id, outbound)
            return
        }
        try await outbound.write(.text(outcome.message))
        await library.noteLogging(outcome, session: session.id, logger: logger)
        if let finished = outcome.finishedRecording { try await conclude(finished, outbound: outbound) }
    }

    /// Completes a recording's entry and announces it to the page; one that got no frame is
    /// removed and the page told so.
    private func conclude(_ finished: FinishedRecording, outbound: WebSocketOutboundWriter?) async throws {
        if let entry = try await library.conclude(finished) {
            if let outbound { try await outbound.write(.text(try LiveMessage.recording(entry.listing).text())) }
        } else if let outbound {
            try await send(error: .nothingRecorded(finished.reason), id: nil, outbound)
        }
    }

    private func send(error: APIError, id: UInt32?, _ outbound: WebSocketOutboundWriter) async throws {
        try await outbound.write(.text(try LiveMessage.error(id: id, error).text()))
    }
}
