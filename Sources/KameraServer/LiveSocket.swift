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
/// or PNG bytes; text messages set `AnalysisOptions` or start and stop a recording
/// (`LiveCommand`). Frames are analysed one at a time per connection; while one is being
/// analysed, only the newest waiting frame is kept (`LiveFrameQueue`) and the client gets
/// `{"id":N,"skipped":true,"dropped":total}` for each frame replaced. When the server is
/// saturated, connections take turns for analysis slots (`AnalysisAdmission.runInTurn`),
/// so each slows down evenly and drops more frames instead of one starving. A frame that cannot be decoded
/// gets `{"id":N,"error":{…}}` and the stream goes on. A recording that ends is announced
/// as `{"recording":{…}}` (the entry `GET /v1/recordings` lists).
struct LiveSocket: Sendable {
    let services: ServerServices

    func run(inbound: WebSocketInboundStream, outbound: WebSocketOutboundWriter) async throws {
        let (limits, library, logger, services) = (services.limits, services.library, services.logger, services)
        // A recording that ends is announced to the page (while it is still there).
        let recording = RecordingController(
            source: "browser", label: "this connection", stopHint: #"send {"record":"stop"} first"#, library: library,
            logger: logger, metrics: services.metrics
        ) { end in try? await outbound.write(.text(try LiveMessage.ended(end.entry, reason: end.reason).text())) }
        let session = LiveSession(recording: recording, recordsFrames: true, maximumPixelCount: limits.maximumPixelCount)
        let queue = LiveFrameQueue()
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                try await session.run(queue, services: services) { delivery in
                    switch delivery {
                    case .result(let id, let message, let jpeg):
                        // The frame comes back only when the server changed it (its background).
                        if let jpeg { try await outbound.write(.binary(LivePicture.message(id: id, jpeg: jpeg))) }
                        try await outbound.write(.text(message))
                    case .failure(let id, let error): try await send(error: error, id: id, outbound)
                    }
                }
                // The page went away: a recording in progress ends with what it has.
                _ = try? await AnalysisExecutor.run { recording.end(.disconnected) }
                await recording.concluded()
            }
            defer { queue.finish() }
            for try await message in inbound.messages(maxSize: limits.maximumFrameBytes) {
                switch message {
                case .binary(let buffer):
                    guard buffer.readableBytes > 4, let id = buffer.getInteger(at: buffer.readerIndex, endianness: .little, as: UInt32.self)
                    else {
                        try await send(
                            error: APIError.badRequest("a frame is a 4-byte frame number then an image", hint: "see /openapi.json"),
                            id: nil, outbound)
                        continue
                    }
                    let frame = LiveFrame(id: id, picture: .encoded(Data(buffer.readableBytesView.dropFirst(4))))
                    if let replaced = queue.yield(frame) {
                        try await outbound.write(.text(try LiveMessage.skipped(id: replaced, dropped: queue.dropped).text()))
                    }
                case .text(let text):
                    if let error = await session.perform(text, limits: services.recordingLimits) {
                        try await send(error: error, id: nil, outbound)
                    }
                }
            }
            queue.finish()
            try await group.waitForAll()
        }
    }

    private func send(error: APIError, id: UInt32?, _ outbound: WebSocketOutboundWriter) async throws {
        try await outbound.write(.text(try LiveMessage.error(id: id, error).text()))
    }
}
