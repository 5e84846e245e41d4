import Foundation
import HTTPTypes
import Hummingbird

/// Lets a request through only with the server's token: `Authorization: Bearer TOKEN`, or the
/// cookie `/login?token=TOKEN` sets (so a browser can open the page and its WebSocket).
/// Only `/login` itself is open.
struct AccessTokenMiddleware<Context: RequestContext>: RouterMiddleware {
    static var cookieName: String { "kamera_token" }
    let token: String

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        if request.uri.path == "/login" || presentedToken(request).map(matches) == true {
            return try await next(request, context)
        }
        throw APIError(
            .unauthorized, code: .unauthorized, message: "this server needs its access token",
            hint: "send Authorization: Bearer TOKEN, or open /login?token=TOKEN in the browser")
    }

    private func presentedToken(_ request: Request) -> String? {
        if let header = request.headers[.authorization], header.lowercased().hasPrefix("bearer ") {
            return String(header.dropFirst("bearer ".count)).trimmingCharacters(in: .whitespaces)
        }
        return request.cookies[Self.cookieName]?.value
    }

    /// Compares in time independent of where the strings differ, so the token cannot be
    /// guessed a character at a time from response times.
    func matches(_ candidate: String) -> Bool {
        let a = Array(candidate.utf8), b = Array(token.utf8)
        var difference = a.count ^ b.count
        for i in 0..<b.count { difference |= Int(i < a.count ? a[i] : 0) ^ Int(b[i]) }
        return difference == 0
    }
}
