import Foundation
import Hummingbird
import Kamera
import KameraReports
import NIOCore

/// The photos taken with server cameras: `GET /v1/stills` (a page at a time, newest first:
/// `{"stills":[…],"next":…}`), each photo's JPEG (`?download` saves it under a dated name) and
/// thumbnail, and `DELETE /v1/stills/{id}`.
struct StillRoutes: Sendable {
    let library: ResultsLibrary

    private struct Listing: Encodable {
        var stills: [StillEntry.Listing]
        /// Null on the last page (written, not left out).
        var next: String?

        private enum Keys: String, CodingKey { case stills, next }

        func encode(to encoder: any Encoder) throws {
            var values = encoder.container(keyedBy: Keys.self)
            try values.encode(stills, forKey: .stills)
            try values.encode(next, forKey: .next)
        }
    }

    func list(_ request: Request) async throws -> Response {
        let page = try APIError.decodingQuery(PageRequest.self, of: request, hint: "e.g. ?limit=100&offset=100")
        let stills = try await library.stills(page: page)
        let listing = Listing(stills: stills.map(\.listing), next: page.next(after: stills.count, path: "/v1/stills"))
        return JSONResponse.make(try JSONValueEncoder.encode(listing).rendered() + "\n")
    }

    func image(_ request: Request, context: some RequestContext) async throws -> Response {
        let entry = try await existing(context)
        var headers: HTTPFields = [.contentType: "image/jpeg"]
        if request.uri.queryParameters["download"] != nil {
            let stamp = entry.takenAt.ISO8601Format().replacingOccurrences(of: ":", with: "-")
            headers[.contentDisposition] = "attachment; filename=\"kamera-\(stamp).jpg\""
        }
        return try file(library.imageURL(entry), headers: headers)
    }

    func thumbnail(context: some RequestContext) async throws -> Response {
        try file(library.thumbnailURL(try await existing(context)), headers: [.contentType: "image/jpeg"])
    }

    func delete(context: some RequestContext) async throws -> Response {
        let id = try context.parameters.require("id")
        guard try await library.deleteStill(id: id) else { throw Self.noSuchStill(id) }
        return Response(status: .noContent)
    }

    /// A photo is at most a few megabytes: sent from memory.
    private func file(_ url: URL, headers: HTTPFields) throws -> Response {
        guard let data = FileManager.default.contents(atPath: url.path) else {
            throw APIError(.notFound, code: .notFound, message: "the photo's file is missing", hint: "delete the photo")
        }
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
    }

    private func existing(_ context: some RequestContext) async throws -> StillEntry {
        let id = try context.parameters.require("id")
        guard let entry = try await library.still(id: id) else { throw Self.noSuchStill(id) }
        return entry
    }

    static func noSuchStill(_ id: String) -> APIError {
        APIError(.notFound, code: .notFound, message: "no photo \(id)", hint: "GET /v1/stills lists them")
    }
}
