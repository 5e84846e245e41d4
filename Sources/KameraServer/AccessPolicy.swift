import Foundation
import HTTPTypes
import Kamera

/// Who may use the server, decided from a request's method, path and headers — one set of
/// rules for HTTP requests (`AccessMiddleware`) and WebSocket upgrades (`FrontDoor`, which must
/// decide before Hummingbird's upgrade handler, whose refusals are always 400).
///
/// - **Token**: when the server has one, every request but `/login` and the probes (`/healthz`,
///   `/readyz`: a Kubernetes probe or a balancer's health check carries no token) presents it
///   (bearer header or the cookie `/login` sets), compared in constant time.
/// - **Host** (DNS rebinding): a server on loopback answers only to loopback names
///   (`localhost`, `127.x.x.x`, `[::1]`) and the hosts of `--allow-origin`; a page on
///   `evil.example` that re-points its name at 127.0.0.1 gets 403.
/// - **Origin** (cross-site requests): a WebSocket upgrade or a state-changing request
///   (anything but GET, HEAD, OPTIONS) that carries an `Origin` must come from the server's
///   own origin (its Host) or an `--allow-origin`; `Origin: null` is refused. Browsers send
///   `Origin` on every such request, so a foreign page can neither watch a camera nor start a
///   recording; tools such as curl send none and are unaffected.
struct AccessPolicy: Sendable {
    static let cookieName = "kamera_token"
    /// Paths answered without the token: the login itself and the probes, which tell no more
    /// than whether the instance is up and ready.
    static let openPaths: Set<String> = ["/login", "/healthz", "/readyz"]

    var token: String?
    /// Origins besides the server's own, as `scheme://host[:port]`, lower-cased.
    var allowedOrigins: Set<String>
    /// Whether Host is checked (the server listens on loopback only).
    var checksHost: Bool

    init(token: String?, allowedOrigins: [String], checksHost: Bool) {
        self.token = token
        self.allowedOrigins = Set(allowedOrigins.map { $0.lowercased().trimmingSuffix("/") })
        self.checksHost = checksHost
    }

    /// The refusal for a request, or nil when it may go on.
    /// - Parameters:
    ///   - host: the request's Host (HTTP/1) or authority.
    ///   - header: a request header's value by name (case-insensitive).
    func refusal(method: String, path: String, host: String?, isUpgrade: Bool, header: (HTTPField.Name) -> String?) -> APIError? {
        let host = host?.lowercased() ?? ""
        if checksHost, !Self.isLoopbackName(host), !allowedOrigins.contains(where: { Self.authority(of: $0) == host }) {
            return APIError(
                .forbidden, code: .forbiddenOrigin, message: "this server answers to localhost, not to '\(host.prefix(80))'",
                hint: "open it as http://localhost:PORT, or start it with --allow-origin for another name")
        }
        let changesState = !["GET", "HEAD", "OPTIONS"].contains(method.uppercased())
        // Browsers send an http(s) origin, or "null" for sandboxed and file pages; another
        // scheme (WebSocket clients send ws://host) is no browser, so no cross-site page.
        if isUpgrade || changesState, let origin = header(.origin)?.lowercased(),
            origin == "null" || origin.hasPrefix("http://") || origin.hasPrefix("https://")
        {
            let own = Self.authority(of: origin) == host && !host.isEmpty
            guard own || allowedOrigins.contains(origin.trimmingSuffix("/")) else {
                return APIError(
                    .forbidden, code: .forbiddenOrigin,
                    message: "requests from the web page at \(origin.prefix(80)) are not allowed",
                    hint: "only the server's own page may use it; start it with --allow-origin \(origin.prefix(80)) to allow that page")
            }
        }
        if let token, !Self.openPaths.contains(path), !presented(token: token, header: header) {
            return APIError(
                .unauthorized, code: .unauthorized, message: "this server needs its access token",
                hint: "send Authorization: Bearer TOKEN, or open /login?token=TOKEN in the browser")
        }
        return nil
    }

    private func presented(token: String, header: (HTTPField.Name) -> String?) -> Bool {
        if let authorization = header(.authorization), authorization.lowercased().hasPrefix("bearer ") {
            return Self.matches(String(authorization.dropFirst("bearer ".count)).trimmingCharacters(in: .whitespaces), token)
        }
        for cookie in (header(.cookie) ?? "").split(separator: ";") {
            let parts = cookie.split(separator: "=", maxSplits: 1)
            if parts.count == 2, parts[0].trimmingCharacters(in: .whitespaces) == Self.cookieName {
                return Self.matches(parts[1].trimmingCharacters(in: .whitespaces), token)
            }
        }
        return false
    }

    /// Compares in time independent of where the strings differ, so the token cannot be
    /// guessed a character at a time from response times.
    static func matches(_ candidate: String, _ token: String) -> Bool {
        let a = Array(candidate.utf8), b = Array(token.utf8)
        var difference = a.count ^ b.count
        for i in 0..<b.count { difference |= Int(i < a.count ? a[i] : 0) ^ Int(b[i]) }
        return difference == 0
    }

    /// `host[:port]` of an origin (`http://localhost:8080` → `localhost:8080`).
    static func authority(of origin: String) -> String {
        guard let range = origin.range(of: "://") else { return origin }
        return String(origin[range.upperBound...]).trimmingSuffix("/")
    }

    /// Whether a Host header names this machine's loopback interface.
    static func isLoopbackName(_ host: String) -> Bool {
        let name: Substring
        if host.hasPrefix("[") {
            name = host.dropFirst().prefix { $0 != "]" }
        } else {
            name = host.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        }
        if name == "localhost" || name == "::1" { return true }
        let octets = name.split(separator: ".", omittingEmptySubsequences: false)
        return octets.count == 4 && octets[0] == "127" && octets.allSatisfy { UInt8($0) != nil }
    }
}

extension String {
    fileprivate func trimmingSuffix(_ suffix: String) -> String {
        hasSuffix(suffix) ? String(dropLast(suffix.count)) : self
    }
}
