import Foundation
import HTTPTypes
import Hummingbird

/// `GET /login?token=TOKEN`: a browser's way in when the server has a token — sets an
/// HTTP-only, same-site cookie with it and goes to the page.
enum LoginRoute {
    static func respond(to request: Request, token: String?) throws -> Response {
        guard let token else { return Response(status: .seeOther, headers: [.location: "/"]) }
        let given = request.uri.queryParameters["token"].map(String.init) ?? ""
        guard AccessPolicy.matches(given, token) else {
            throw APIError(.unauthorized, code: .unauthorized, message: "wrong token", hint: "use the token the server was started with")
        }
        var response = Response(status: .seeOther, headers: [.location: "/"])
        response.setCookie(
            Cookie(name: AccessPolicy.cookieName, value: token, path: "/", httpOnly: true, sameSite: .strict))
        return response
    }
}
