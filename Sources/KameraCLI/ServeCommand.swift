import ArgumentParser
import Foundation
import Kamera
import KameraReports
import KameraServer

/// `kamera serve`: the web page and the HTTP API on this machine.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve the live web page and the HTTP API (POST /v1/detect, /v1/generate, WebSocket /v1/live).",
        discussion: """
            Listens on 127.0.0.1:8080 unless told otherwise and prints the page's address. On any other \
            address --token is required and every request must carry it (Authorization: Bearer TOKEN, \
            or open /login?token=TOKEN once in the browser). The API is described at /openapi.json; \
            /healthz and /readyz are the probes (no token needed), /metrics the Prometheus metrics. \
            Stops on Ctrl-C or SIGTERM, after draining requests in flight (--drain-timeout).

            Every option can also come from the environment, for containers: --some-name is \
            KAMERA_SOME_NAME (KAMERA_PORT=9000, KAMERA_DATA=/var/lib/kamera; comma-separated for \
            --camera and --allow-origin). The command line wins over the environment.
            """
    )

    @Option(name: .long, help: "Address to listen on (default 127.0.0.1; 0.0.0.0 for every interface, needs --token).")
    var host = "127.0.0.1"

    @Option(name: .long, parsing: .unconditional, help: "TCP port (default 8080; 0 picks a free one).")
    var port = 8080

    @Option(
        name: .long,
        help:
            "Access token every request must carry (16+ letters, digits or -_.~). Visible to other users in ps: prefer --token-file or KAMERA_TOKEN."
    )
    var token: String?

    @Option(name: .long, help: "Read the access token from this file (its first line).")
    var tokenFile: String?

    @Option(
        name: .long,
        help:
            "A web origin besides the server's own page allowed to use it, e.g. https://app.example.com (repeatable). Other origins' pages get 403."
    )
    var allowOrigin: [String] = []

    @Option(name: .long, parsing: .unconditional, help: "Connections open at once before new ones get 503 (default 200).")
    var maxConnections = 200

    @Option(
        name: .long, parsing: .unconditional,
        help: "Megabytes of uploads and decoded pixels in flight at once before uploads get 503 (default 768).")
    var memoryBudget = 768

    @Option(name: .long, parsing: .unconditional, help: "Seconds a new connection has to send its request head (default 10).")
    var headerTimeout = 10.0

    @Option(name: .long, parsing: .unconditional, help: "Seconds a request body may take to arrive (default 30).")
    var bodyTimeout = 30.0

    @Option(name: .long, parsing: .unconditional, help: "Seconds a keep-alive connection may stay idle (default 60).")
    var idleTimeout = 60.0

    @Option(name: .long, help: "Data directory: the results library (SQLite) and recordings (default $XDG_DATA_HOME/kamera).")
    var data: String?

    @Option(
        name: .long,
        help:
            "A camera on this machine to watch and record from the page, e.g. /dev/video0 (repeatable; a video file is played in a loop as a camera)."
    )
    var camera: [String] = []

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Server cameras cover faces in all they show and record from the first frame: blur, pixelate or fill (pages can change the style, not turn it off).",
            valueName: "blur|pixelate|fill"))
    var privacy: RedactionStyle?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Server cameras save a clip whenever one of these comes into view, from --pre-roll seconds before it to --post-roll after it leaves (listed with the recordings). The cameras then run all the time.",
            valueName: "face,code,person"))
    var clips: CameraEventList?

    @Option(name: .long, parsing: .unconditional, help: "Seconds of video an event clip has before the event (default 5, at most 60).")
    var preRoll = 5.0

    @Option(name: .long, parsing: .unconditional, help: "Seconds an event clip goes on after the event was last seen (default 5).")
    var postRoll = 5.0

    @Option(
        name: .long, parsing: .unconditional, help: "Longest event clip in seconds; a longer event goes on in the next clip (default 300).")
    var maxClipSeconds = 300.0

    @Option(name: .long, parsing: .unconditional, help: "Largest request body in megabytes (default 32).")
    var maxBody = 32

    @Option(name: .long, parsing: .unconditional, help: "Largest decoded image in megapixels (default 50).")
    var maxMegapixels = 50

    @Option(name: .long, parsing: .unconditional, help: "Seconds a /v1 call may take before it gets 504 (default 30).")
    var timeout = 30.0

    @Option(
        name: .long, parsing: .unconditional, help: "Analyses running or waiting at once before callers get 503 (default 2 per core + 2).")
    var slots: Int?

    @Option(name: .long, parsing: .unconditional, help: "Longest recording in seconds (default 300; the page may ask for less).")
    var maxRecordSeconds = 300.0

    @Option(name: .long, parsing: .unconditional, help: "Largest recording in megabytes (default 500).")
    var maxRecordMb = 500

    @Option(name: .long, parsing: .unconditional, help: "Stop recording when the data disk has fewer free megabytes (default 256).")
    var minFreeMb = 256

    @Option(
        name: .long, parsing: .unconditional,
        help: "Seconds a stop (SIGTERM) may take to finish requests in flight and recordings before the server exits anyway (default 25).")
    var drainTimeout = 25.0

    @Option(name: .long, help: ArgumentHelp("Log lines as text or JSON objects (default text).", valueName: "text|json"))
    var logFormat: LogFormat = .text

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Least severe log entries written; info logs a line per request (default info).",
            valueName: "trace|debug|info|notice|warning|error|critical"))
    var logLevel: LogLevelArgument = .info

    func validate() throws {
        // Ranges first: the products and shifts below must not overflow.
        guard (1...4096).contains(maxBody) else { throw ValidationError("--max-body must be 1…4096 megabytes") }
        guard (1...10_000).contains(maxMegapixels) else { throw ValidationError("--max-megapixels must be 1…10000") }
        guard timeout > 0, timeout <= 3600 else { throw ValidationError("--timeout must be 0 < seconds ≤ 3600") }
        if let slots, !(1...1024).contains(slots) { throw ValidationError("--slots must be 1…1024") }
        guard maxRecordSeconds > 0, maxRecordSeconds <= 7 * 86_400 else {
            throw ValidationError("--max-record-seconds must be 0 < seconds ≤ 604800")
        }
        guard (1...10_000_000).contains(maxRecordMb), (0...10_000_000).contains(minFreeMb) else {
            throw ValidationError("--max-record-mb must be 1…10000000, --min-free-mb 0…10000000")
        }
        guard (1...100_000).contains(maxConnections) else { throw ValidationError("--max-connections must be 1…100000") }
        guard drainTimeout >= 0, drainTimeout <= 3600 else { throw ValidationError("--drain-timeout must be 0…3600 seconds") }
        guard (1...1_000_000).contains(memoryBudget) else { throw ValidationError("--memory-budget must be 1…1000000 megabytes") }
        if token != nil, tokenFile != nil { throw ValidationError("give --token or --token-file, not both") }
        if clips != nil, camera.isEmpty { throw ValidationError("--clips needs a server camera (--camera)") }
        try CommandFailure.validating { try serverConfiguration().validate() }
    }

    /// The token from --token or --token-file (KAMERA_TOKEN and KAMERA_TOKEN_FILE arrive as
    /// those flags, `ServeEnvironment`).
    func accessToken() throws -> String? {
        if let token { return token }
        if let tokenFile {
            guard let text = FileManager.default.contents(atPath: tokenFile).map({ String(decoding: $0, as: UTF8.self) }) else {
                throw KameraError.unreadableFile(path: tokenFile, reason: "cannot read the token file")
            }
            return text.split(whereSeparator: \.isNewline).first.map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
        }
        return nil
    }

    func serverConfiguration() throws -> ServerConfiguration {
        var limits = RequestLimits(
            maximumBodyBytes: maxBody << 20, maximumPixelCount: maxMegapixels * 1_000_000, requestTimeout: timeout,
            maximumConnections: maxConnections, headerTimeout: headerTimeout, bodyTimeout: bodyTimeout, idleTimeout: idleTimeout,
            memoryBudget: max(memoryBudget, maxBody) << 20)
        if let slots { limits.analysisSlots = slots }
        var configuration = ServerConfiguration(
            host: host, port: port, token: try accessToken(),
            dataDirectory: data.map { URL(fileURLWithPath: $0) } ?? ServerConfiguration.defaultDataDirectory, limits: limits,
            recordingLimits: RecordingLimits(
                maximumDuration: maxRecordSeconds, maximumFileSize: Int64(maxRecordMb) << 20, minimumFreeDiskSpace: Int64(minFreeMb) << 20),
            cameras: camera)
        configuration.allowedOrigins = allowOrigin
        configuration.cameraPrivacy = privacy
        configuration.cameraClips = clips.map {
            EventClipPolicy(events: $0.events, preRoll: preRoll, postRoll: postRoll, maximumDuration: maxClipSeconds)
        }
        configuration.drainTimeout = drainTimeout
        configuration.logFormat = logFormat
        configuration.logLevel = logLevel.level
        return configuration
    }

    func run() async throws {
        let configuration = try CommandFailure.run { try serverConfiguration() }
        let server = try CommandFailure.run { try KameraServer(configuration: configuration) }
        let shownHost = configuration.host.contains(":") ? "[\(configuration.host)]" : configuration.host
        do {
            try await server.run { port in
                let login = configuration.token == nil ? "" : " (first visit: /login?token=…)"
                try? StandardStreams.outputLine("kamera: serving http://\(shownHost):\(port)/\(login) — Ctrl-C stops")
                for (index, path) in configuration.cameras.enumerated() {
                    try? StandardStreams.outputLine("kamera: camera \(index) is \(path) (live view: /v1/cameras/\(index)/live)")
                }
                if let clips = configuration.cameraClips {
                    let events = clips.events.sorted().map(\.rawValue).joined(separator: ", ")
                    try? StandardStreams.outputLine(
                        "kamera: cameras save a clip of each \(events) (\(clips.preRoll) s before, \(clips.postRoll) s after)")
                }
            }
        } catch {
            StandardStreams.error("kamera: cannot serve on \(shownHost):\(configuration.port): \(error)\n")
            throw ExitCode(1)
        }
    }
}
