import Foundation
import HTTPTypes
import Hummingbird
import Kamera
import KameraReports
import NIOCore

/// The gallery's routes: `GET /v1/recordings`, each recording's movie (with byte ranges, so
/// the page's `<video>` can seek) and thumbnail, and `DELETE /v1/recordings/{id}` (which
/// deletes its files).
struct RecordingRoutes: Sendable {
    let library: ResultsLibrary
    let files = FileIO()

    func list() async throws -> Response {
        let listings = try await library.recordings().map(\.listing)
        return JSONResponse.make(try JSONValueEncoder.encode(["recordings": listings]).rendered() + "\n")
    }

    func movie(_ request: Request, context: some RequestContext) async throws -> Response {
        let entry = try await existing(context)
        let path = library.movieURL(entry).path
        guard let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int).flatMap({ $0 }), size > 0 else {
            throw APIError(.notFound, code: .notFound, message: "the recording's movie is missing", hint: "delete the recording")
        }
        var headers: HTTPFields = [.contentType: "video/mp4", .acceptRanges: "bytes"]
        if request.uri.queryParameters["download"] != nil {
            // Saved under a name that says what it is, not the id.
            let stamp = entry.startedAt.ISO8601Format().replacingOccurrences(of: ":", with: "-")
            headers[.contentDisposition] = "attachment; filename=\"kamera-\(stamp).mp4\""
        }
        if let range = request.headers[.range].flatMap({ Self.byteRange($0, size: size) }) {
            headers[.contentRange] = "bytes \(range.lowerBound)-\(range.upperBound)/\(size)"
            headers[.contentLength] = String(range.count)
            return Response(
                status: .partialContent, headers: headers, body: try await files.loadFile(path: path, range: range, context: context))
        }
        headers[.contentLength] = String(size)
        return Response(status: .ok, headers: headers, body: try await files.loadFile(path: path, context: context))
    }

    func thumbnail(context: some RequestContext) async throws -> Response {
        let entry = try await existing(context)
        guard entry.hasThumbnail, let data = FileManager.default.contents(atPath: library.thumbnailURL(entry).path) else {
            throw APIError(.notFound, code: .notFound, message: "this recording has no thumbnail", hint: "its movie may be unreadable")
        }
        return Response(status: .ok, headers: [.contentType: "image/png"], body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
    }

    func delete(context: some RequestContext) async throws -> Response {
        let id = try context.parameters.require("id")
        guard try await library.deleteRecording(id: id) else { throw Self.noSuchRecording(id) }
        return Response(status: .noContent)
    }

    private func existing(_ context: some RequestContext) async throws -> RecordingEntry {
        let id = try context.parameters.require("id")
        guard let entry = try await library.recording(id: id) else { throw Self.noSuchRecording(id) }
        return entry
    }

    static func noSuchRecording(_ id: String) -> APIError {
        APIError(.notFound, code: .notFound, message: "no recording \(id)", hint: "GET /v1/recordings lists them")
    }

    /// The single range of a `Range: bytes=A-B` header (A-, -N forms too), clamped to the
    /// file; nil for anything else (the whole file is sent).
    static func byteRange(_ header: String, size: Int) -> ClosedRange<Int>? {
        guard header.hasPrefix("bytes="), !header.contains(",") else { return nil }
        let parts = header.dropFirst(6).split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2 else { return nil }
        let (first, last) = (Int(parts[0]), Int(parts[1]))
        switch (first, last) {
        case (let a?, let b?) where a <= b && a < size: return a...min(b, size - 1)
        case (let a?, nil) where a < size: return a...(size - 1)
        case (nil, let n?) where n > 0: return max(0, size - n)...(size - 1)
        default: return nil
        }
    }
}
