import ArgumentParser
import Foundation
import Kamera
import KameraServer

/// `kamera serve`: the web page and the HTTP API on this machine.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve the live web page and the HTTP API (POST /v1/detect, /v1/generate, WebSocket /v1/live).",
        discussion: """
            Listens on 127.0.0.1:8080 unless told otherwise and prints the page's address. On any other \
            address --token is required and every request must carry it (Authorization: Bearer TOKEN, \
            or open /login?token=TOKEN once in the browser). The API is described at /openapi.json. \
            Stops on Ctrl-C or SIGTERM.
            """
    )

    @Option(name: .long, help: "Address to listen on (default 127.0.0.1; 0.0.0.0 for every interface, needs --token).")
    var host = "127.0.0.1"

    @Option(name: .long, parsing: .unconditional, help: "TCP port (default 8080; 0 picks a free one).")
    var port = 8080

    @Option(name: .long, help: "Access token every request must carry (16+ letters, digits or -_.~). Also read from KAMERA_TOKEN.")
    var token: String?

    @Option(name: .long, help: "Data directory: the results library (SQLite) and recordings (default $XDG_DATA_HOME/kamera).")
    var data: String?

    @Option(
        name: .long,
        help:
            "A camera on this machine to watch and record from the page, e.g. /dev/video0 (repeatable; a video file is played in a loop as a camera)."
    )
    var camera: [String] = []

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

    func validate() throws {
        guard maxBody > 0, maxMegapixels > 0 else { throw ValidationError("--max-body and --max-megapixels must be positive") }
        guard timeout > 0, timeout.isFinite else { throw ValidationError("--timeout must be a positive number of seconds") }
        if let slots, slots < 1 { throw ValidationError("--slots must be at least 1") }
        guard maxRecordSeconds > 0, maxRecordSeconds.isFinite, maxRecordMb > 0, minFreeMb >= 0 else {
            throw ValidationError("--max-record-seconds and --max-record-mb must be positive, --min-free-mb not negative")
        }
        try CommandFailure.validating { try serverConfiguration.validate() }
    }

    var serverConfiguration: ServerConfiguration {
        var limits = RequestLimits(maximumBodyBytes: maxBody << 20, maximumPixelCount: maxMegapixels * 1_000_000, requestTimeout: timeout)
        if let slots { limits.analysisSlots = slots }
        return ServerConfiguration(
            host: host, port: port, token: token ?? ProcessInfo.processInfo.environment["KAMERA_TOKEN"],
            dataDirectory: data.map { URL(fileURLWithPath: $0) } ?? ServerConfiguration.defaultDataDirectory, limits: limits,
            recordingLimits: RecordingLimits(
                maximumDuration: maxRecordSeconds, maximumFileSize: Int64(maxRecordMb) << 20, minimumFreeDiskSpace: Int64(minFreeMb) << 20),
            cameras: camera)
    }

    func run() async throws {
        let configuration = serverConfiguration
        let server = try CommandFailure.run { try KameraServer(configuration: configuration) }
        let shownHost = configuration.host.contains(":") ? "[\(configuration.host)]" : configuration.host
        do {
            try await server.run { port in
                let login = configuration.token == nil ? "" : " (first visit: /login?token=…)"
                try? StandardStreams.outputLine("kamera: serving http://\(shownHost):\(port)/\(login) — Ctrl-C stops")
                for (index, path) in configuration.cameras.enumerated() {
                    try? StandardStreams.outputLine("kamera: camera \(index) is \(path) (live view: /v1/cameras/\(index)/live)")
                }
            }
        } catch {
            StandardStreams.error("kamera: cannot serve on \(shownHost):\(configuration.port): \(error)\n")
            throw ExitCode(1)
        }
    }
}
