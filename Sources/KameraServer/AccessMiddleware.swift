import Foundation
import HTTPTypes
import Hummingbird

/// Applies the `AccessPolicy` to every HTTP request and adds the headers that keep the page
/// from being framed, sniffed or fed foreign scripts, to every response (errors too).
struct AccessMiddleware<Context: RequestContext>: RouterMiddleware {
    let policy: AccessPolicy

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var response: Response
        if let refusal = policy.refusal(
            method: request.method.rawValue, path: request.uri.path, host: request.head.authority, isUpgrade: false,
            header: { request.headers[$0] })
        {
            response = try refusal.response(from: request, context: context)
        } else {
            do {
                response = try await next(request, context)
            } catch let error as any HTTPResponseError {
                response = try error.response(from: request, context: context)
            }
        }
        for field in SecurityHeaders.fields where response.headers[field.name] == nil { response.headers.append(field) }
        return response
    }
}

/// The headers every response carries.
enum SecurityHeaders {
    /// The page loads only its own scripts, styles and media, talks only to its own server,
    /// and cannot be framed (clickjacking); responses are never content-sniffed.
    static let fields: HTTPFields = [
        .contentSecurityPolicy:
            "default-src 'self'; img-src 'self' blob: data:; media-src 'self' blob:; connect-src 'self'; "
            + "frame-ancestors 'none'; base-uri 'none'; form-action 'self'",
        HTTPField.Name("X-Content-Type-Options")!: "nosniff",
        HTTPField.Name("X-Frame-Options")!: "DENY",
        HTTPField.Name("Referrer-Policy")!: "no-referrer",
    ]
}
