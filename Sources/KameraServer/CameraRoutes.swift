import Foundation
import Hummingbird
import HummingbirdWebSocket
import Kamera
import KameraReports
import NIOCore

/// The server cameras' routes: `GET /v1/cameras`, recording from a camera
/// (`POST`/`DELETE /v1/cameras/{index}/recording`, so a headless box records with curl), and
/// the live view `/v1/cameras/{index}/live`.
///
/// The live WebSocket sends, for each analysed frame, a binary message (the 4-byte
/// little-endian frame number, then the frame as JPEG) followed by the text message
/// `/v1/live` sends for a frame (with the same id). The page sends text messages only: options
/// and `{"record":"start"|"stop"}` as on `/v1/live`.
struct CameraRoutes: Sendable {
    let cameras: [ServerCamera]
    let services: ServerServices

    func list() throws -> Response {
        JSONResponse.make(try JSONValueEncoder.encode(["cameras": cameras.map(\.listing)]).rendered() + "\n")
    }

    /// The camera named by the route's `{index}`, or 404.
    func camera(_ context: some RequestContext) throws -> ServerCamera {
        let text = try context.parameters.require("index")
        guard let index = Int(text), cameras.indices.contains(index) else {
            throw APIError(
                .notFound, code: .notFound, message: "no server camera \(text)",
                hint: cameras.isEmpty ? "start kamera serve with --camera /dev/videoN" : "GET /v1/cameras lists them")
        }
        return cameras[index]
    }

    func startRecording(_ request: Request, context: some RequestContext) async throws -> Response {
        let camera = try camera(context)
        let asked = try APIError.decodingQuery(RecordingRequest.self, of: request, hint: "e.g. ?maxSeconds=60&maxMegabytes=200")
        let entry = try await camera.startRecording(
            limits: try APIError.mappingKameraErrors { try services.recordingLimits.lowered(to: asked) })
        return JSONResponse.make(try JSONValueEncoder.encode(["recording": entry.listing]).rendered() + "\n", status: .created)
    }

    func stopRecording(context: some RequestContext) async throws -> Response {
        let ended = try await camera(context).recording.stop()
        guard let entry = ended.entry else { throw APIError.nothingRecorded(ended.reason) }
        return JSONResponse.make(try JSONValueEncoder.encode(["recording": entry.listing]).rendered() + "\n")
    }

    /// `POST /v1/cameras/{index}/photo`: a photo from the camera's next frame at its full
    /// size, as a JPEG with EXIF (orientation, time taken), saved in the library and listed by
    /// `GET /v1/stills`; faces are covered when the camera covers them (`--privacy`, or a
    /// page's choice). Answers 201 with `{"still":{…}}`.
    func takePhoto(context: some RequestContext) async throws -> Response {
        let camera = try camera(context)
        let library = services.library
        let minimum = services.recordingLimits.minimumFreeDiskSpace
        if let free = FreeDiskSpace.bytes(onVolumeOf: library.stillsDirectory.path), free < minimum {
            throw APIError(
                .insufficientStorage507, code: .diskSpaceLow, message: "the data disk has \(free >> 20) MB free, below the minimum",
                hint: "delete recordings or photos, or lower --min-free-mb")
        }
        let frame = try await camera.nextFrame()
        let covering = camera.session.faceCovering
        let taken = Date()
        let (image, thumbnail, picture) = try await APIError.mappingKameraErrors {
            try await services.admission.run(timeout: services.limits.requestTimeout) {
                var picture = frame.pixelBuffer
                if let covering {
                    picture = try Redactor(configuration: Redactor.Configuration(style: covering)).redact(Image(pixelBuffer: picture))
                        .pixelBuffer
                }
                let image = try ImageEncoder.encodePhoto(picture, quality: 92, metadata: PhotoMetadata(orientation: .up, dateTaken: taken))
                let thumbnail = try ImageEncoder.encode(picture.fitting(maximumDimension: 320), as: .jpeg(quality: 80))
                return (image, thumbnail, picture)
            }
        }
        let entry = StillEntry(
            id: UUID().uuidString, takenAt: taken, width: picture.width, height: picture.height, bytes: Int64(image.count),
            source: camera.path, facesCovered: covering != nil)
        do {
            try await library.insert(entry, image: image, thumbnail: thumbnail)
        } catch {
            throw library.apiError(error, logger: services.logger)
        }
        return JSONResponse.make(try JSONValueEncoder.encode(["still": entry.listing]).rendered() + "\n", status: .created)
    }

    /// One page watching a camera: frames and results out, options and recording commands in.
    func live(_ camera: ServerCamera, inbound: WebSocketInboundStream, outbound: WebSocketOutboundWriter) async throws {
        let (id, updates) = camera.watch()
        defer { camera.stopWatching(id) }
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                for await update in updates {
                    switch update {
                    case .frame(let frameID, let jpeg, let message):
                        try await outbound.write(.binary(LivePicture.message(id: frameID, jpeg: jpeg)))
                        try await outbound.write(.text(message))
                    case .notice(let message):
                        try await outbound.write(.text(try message.text()))
                    }
                }
                // The camera failed and let its watchers go.
                try await outbound.close(.goingAway, reason: "camera unavailable")
            }
            for try await message in inbound.messages(maxSize: 1 << 16) {
                guard case .text(let text) = message else {
                    try await send(
                        APIError.badRequest("a server camera's socket takes text messages only", hint: "options or record commands"),
                        outbound)
                    continue
                }
                if let error = await camera.session.perform(
                    text, limits: services.recordingLimits, started: { camera.startCaptureIfNeeded() })
                {
                    try await send(error, outbound)
                }
            }
            camera.stopWatching(id)
            try await group.waitForAll()
        }
    }

    private func send(_ error: APIError, _ outbound: WebSocketOutboundWriter) async throws {
        try await outbound.write(.text(try LiveMessage.error(id: nil, error).text()))
    }
}
