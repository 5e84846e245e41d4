import Foundation
import Hummingbird
import Kamera
import KameraReports

/// What the results library holds, read back a page at a time, newest first:
/// `GET /v1/codes` (codes first seen in live sessions), `GET /v1/photos` (photos analysed
/// through `/v1/detect`) and `GET /v1/face-tracks` (faces followed in live sessions). Each
/// answers `{"KIND":[…],"next":"/v1/KIND?limit=…&offset=…"}`, `next` null on the last page.
struct LibraryRoutes: Sendable {
    let library: ResultsLibrary

    /// A page of `items` under `key`, with the link to the next page.
    private struct Listing<Item: Encodable>: Encodable {
        var items: [Item]
        var key: String
        var next: String?

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: AnyKey.self)
            try container.encode(items, forKey: AnyKey(key))
            try container.encode(next, forKey: AnyKey("next"))
        }
    }

    private struct AnyKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(_ name: String) { stringValue = name }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    func codes(_ request: Request) async throws -> Response {
        try await page(request, key: "codes", path: "/v1/codes") { try await library.codes(page: $0) }
    }

    func photos(_ request: Request) async throws -> Response {
        try await page(request, key: "photos", path: "/v1/photos") { try await library.photos(page: $0) }
    }

    func faceTracks(_ request: Request) async throws -> Response {
        try await page(request, key: "faceTracks", path: "/v1/face-tracks") { try await library.faceTracks(page: $0).map(\.listing) }
    }

    private func page<Item: Encodable>(
        _ request: Request, key: String, path: String, read: (PageRequest) async throws -> [Item]
    ) async throws -> Response {
        let page = try APIError.decodingQuery(PageRequest.self, of: request, hint: "e.g. ?limit=100&offset=100")
        let items = try await read(page)
        let listing = Listing(items: items, key: key, next: page.next(after: items.count, path: path))
        return JSONResponse.make(try JSONValueEncoder.encode(listing).rendered() + "\n")
    }
}
