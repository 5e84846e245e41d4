import Foundation
import Kamera
import Logging

/// Where `kamera serve` listens, who may use it and how much work it accepts.
public struct ServerConfiguration: Sendable {
    /// Address to bind; loopback unless told otherwise.
    public var host: String
    /// TCP port; 0 picks a free one (tests).
    public var port: Int
    /// Required of every request when set (bearer header or the cookie `/login` sets). A server
    /// on a non-loopback address refuses to start without one.
    public var token: String?
    /// Where recordings and the results library live.
    public var dataDirectory: URL
    public var limits: RequestLimits
    public var recordingLimits: RecordingLimits
    /// Server cameras (`--camera`): V4L2 devices such as `/dev/video0`, or video files played
    /// in a loop as if they were cameras. Index `n` is served at `/v1/cameras/n/live`.
    public var cameras: [String]
    /// Web origins besides the server's own page that may use it (`https://app.example.com`):
    /// their pages may open its WebSockets and send it requests that change state.
    public var allowedOrigins: [String] = []
    /// Server cameras cover the faces in everything they show and record, in this style, from
    /// the first frame (`--privacy`); a page may change the style, not turn it off. Nil: pages
    /// choose (`redact` in the live options).
    public var cameraPrivacy: RedactionStyle?
    /// Server cameras save a clip around each event of these kinds (`--clips`); nil: none.
    public var cameraClips: EventClipPolicy?
    /// Seconds a stop (SIGTERM, SIGINT) may take: the server stops accepting connections,
    /// `/readyz` answers 503, requests in flight finish, live sockets are closed and recordings
    /// concluded; past this, what is still running is cut off and the server exits anyway.
    /// Kubernetes waits 30 s (`terminationGracePeriodSeconds`) before it kills a pod.
    public var drainTimeout: Double = 25
    /// How the log is written (`--log-format`).
    public var logFormat: LogFormat = .text
    /// The least severe log entries written: `info` logs a line per request.
    public var logLevel: Logger.Level = .info

    public init(
        host: String = "127.0.0.1", port: Int = 8080, token: String? = nil,
        dataDirectory: URL = ServerConfiguration.defaultDataDirectory, limits: RequestLimits = RequestLimits(),
        recordingLimits: RecordingLimits = RecordingLimits(), cameras: [String] = []
    ) {
        self.cameras = cameras
        self.recordingLimits = recordingLimits
        self.host = host
        self.port = port
        self.token = token
        self.dataDirectory = dataDirectory
        self.limits = limits
    }

    /// `$XDG_DATA_HOME/kamera`, else `~/.local/share/kamera`.
    public static var defaultDataDirectory: URL {
        let environment = ProcessInfo.processInfo.environment
        if let xdg = environment["XDG_DATA_HOME"], xdg.hasPrefix("/") {
            return URL(fileURLWithPath: xdg).appendingPathComponent("kamera")
        }
        return FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".local/share/kamera")
    }

    /// Whether `host` only accepts connections from this machine.
    public var isLoopback: Bool {
        ["127.0.0.1", "::1", "localhost"].contains(host) || host.hasPrefix("127.")
    }

    /// Refuses what would expose the server: a public address without a token, an empty token,
    /// a port out of range, limits that cannot work.
    public func validate() throws {
        guard (0...65535).contains(port) else { throw KameraError.invalidArgument("port \(port) is not 0…65535") }
        if let token {
            let allowed = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: "-_.~"))
            guard token.count >= 16, token.unicodeScalars.allSatisfy({ $0.isASCII && allowed.contains($0) }) else {
                throw KameraError.invalidArgument(
                    "the token must be at least 16 letters, digits or -_.~ (try: openssl rand -hex 16)")
            }
        }
        try cameraClips?.validate()
        guard isLoopback || token != nil else {
            throw KameraError.invalidArgument(
                "refusing to listen on \(host) without --token: anyone who can reach it could use the server")
        }
        guard drainTimeout >= 0, drainTimeout <= 3600 else {
            throw KameraError.invalidArgument("the drain timeout \(drainTimeout) s is not 0…3600 seconds")
        }
        try limits.validate()
        try recordingLimits.validate()
        for origin in allowedOrigins {
            guard let url = URL(string: origin), ["http", "https"].contains(url.scheme ?? ""), url.host != nil,
                url.path.isEmpty || url.path == "/"
            else {
                throw KameraError.invalidArgument("--allow-origin \(origin) is not an origin such as https://app.example.com")
            }
        }
    }
}
