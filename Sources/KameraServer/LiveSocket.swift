import Foundation
import HummingbirdWebSocket
import Kamera
import KameraReports
import NIOCore

/// `/v1/live`: the page streams camera frames, the server answers each analysed frame with a
/// JSON message (`LiveFrameResult`).
///
/// Client to server: binary messages, a 4-byte little-endian frame number then the JPEG, WebP
/// or PNG bytes; text messages set `LiveOptions`. Frames are analysed one at a time per
/// connection; while one is being analysed, only the newest waiting frame is kept (latest
/// frame wins), and a frame is also dropped when every analysis slot in the server is taken.
/// A frame that cannot be decoded gets `{"id":N,"error":{…}}` and the stream goes on.
struct LiveSocket: Sendable {
    let admission: AnalysisAdmission
    let limits: RequestLimits

    struct Frame: Sendable {
        var id: UInt32
        var image: Data
    }

    func run(inbound: WebSocketInboundStream, outbound: WebSocketOutboundWriter) async throws {
        let session = LiveSession(maximumPixelCount: limits.maximumPixelCount)
        let (frames, waiting) = AsyncStream.makeStream(of: Frame.self, bufferingPolicy: .bufferingNewest(1))
        let dropped = DropCounter()
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                for await frame in frames {
                    try await analyse(frame, session: session, dropped: dropped, outbound: outbound)
                }
            }
            defer { waiting.finish() }
            for try await message in inbound.messages(maxSize: limits.maximumFrameBytes) {
                switch message {
                case .binary(let buffer):
                    guard buffer.readableBytes > 4, let id = buffer.getInteger(at: buffer.readerIndex, endianness: .little, as: UInt32.self)
                    else {
                        try await outbound.write(
                            .text(
                                try Self.errorMessage(
                                    id: nil,
                                    APIError.badRequest(
                                        "a frame is a 4-byte frame number then an image", hint: "see /openapi.json"))))
                        continue
                    }
                    let image = Data(buffer.readableBytesView.dropFirst(4))
                    if case .dropped = waiting.yield(Frame(id: id, image: image)) { dropped.add() }
                case .text(let text):
                    do {
                        session.update(try JSONDecoder().decode(LiveOptions.self, from: Data(text.utf8)))
                    } catch {
                        try await outbound.write(
                            .text(
                                try Self.errorMessage(
                                    id: nil,
                                    APIError.badRequest(
                                        "options must be JSON like {\"faces\":true,\"landmarks\":false,\"codes\":true,\"text\":false}",
                                        hint: error.localizedDescription))))
                    }
                }
            }
            waiting.finish()
            try await group.waitForAll()
        }
    }

    private func analyse(_ frame: Frame, session: LiveSession, dropped: DropCounter, outbound: WebSocketOutboundWriter) async throws {
        let droppedSoFar = dropped.count
        do {
            guard
                let result = try await admission.runIfFree({ try session.analyse(id: frame.id, image: frame.image, dropped: droppedSoFar) })
            else {
                dropped.add()
                return
            }
            try await outbound.write(.text(result))
        } catch let error as KameraError {
            try await outbound.write(.text(try Self.errorMessage(id: frame.id, APIError(error))))
        }
    }

    static func errorMessage(id: UInt32?, _ error: APIError) throws -> String {
        struct Message: Encodable {
            var id: UInt32?
            var error: DetectionReport.FileError
        }
        return try JSONValueEncoder.encode(Message(id: id, error: error.error)).compact()
    }
}
