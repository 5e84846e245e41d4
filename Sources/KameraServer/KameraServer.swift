import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdCore
import HummingbirdWebSocket
import Kamera
import KameraReports
import Logging
import NIOCore
import ServiceLifecycle

/// `kamera serve`: the HTTP API (`/v1/detect`, `/v1/generate`), the live WebSocket
/// (`/v1/live`) and the web page, on Hummingbird 2. Detection and encoding run on Kamera's
/// analysis threads behind a bounded admission (`RequestLimits.analysisSlots`), never on the
/// event loops or Swift's cooperative pool.
public struct KameraServer: Sendable {
    public let configuration: ServerConfiguration
    let services: ServerServices
    let cameras: [ServerCamera]
    let occupancy = FrontDoor.Occupancy()
    let lifecycle = ServerLifecycle()

    /// Checks the configuration (a public address needs a token; each camera exists and
    /// captures video) and prepares the server.
    public init(configuration: ServerConfiguration) throws {
        try configuration.validate()
        self.configuration = configuration
        let metrics = ServerMetrics()
        let admission = AnalysisAdmission(slots: configuration.limits.analysisSlots, metrics: metrics)
        let library = try ResultsLibrary(directory: configuration.dataDirectory)
        let (format, level) = (configuration.logFormat, configuration.logLevel)
        let logger = Logger(label: "kamera.serve") { label in ServerLogHandler(label: label, format: format, logLevel: level) }
        let services = ServerServices(
            admission: admission, limits: configuration.limits, recordingLimits: configuration.recordingLimits,
            budget: MemoryBudget(capacity: configuration.limits.memoryBudget), library: library, logger: logger, metrics: metrics)
        cameras = try configuration.cameras.enumerated().map { index, path in
            try ServerCamera(
                index: index, path: path, services: services, privacy: configuration.cameraPrivacy, clips: configuration.cameraClips)
        }
        self.services = services
    }

    /// Runs until SIGINT or SIGTERM, then drains (`ServerConfiguration.drainTimeout`);
    /// `onListening` gets the port once the server accepts connections (the chosen one when the
    /// configuration's port is 0). The models load meanwhile (`/readyz` says when).
    public func run(onListening: @escaping @Sendable (Int) -> Void = { _ in }) async throws {
        HeapTrimming.configure()
        let trimming = Task { await HeapTrimming.run() }
        defer { trimming.cancel() }
        try await services.library.finishInterruptedRecordings()
        startEventClips()
        let warming = Task { [lifecycle, services] in await lifecycle.warmUp(metrics: services.metrics) }
        defer { warming.cancel() }
        var group = ServiceGroupConfiguration(
            services: [
                .init(service: makeApplication(onListening: onListening)),
                .init(
                    service: DrainWatch(lifecycle: lifecycle, timeout: configuration.drainTimeout, logger: services.logger),
                    successTerminationBehavior: .ignore),
            ],
            gracefulShutdownSignals: [.sigterm, .sigint], logger: services.logger)
        // Past the drain, what is still running is cancelled (a live socket, a slow upload).
        group.maximumGracefulShutdownDuration = .milliseconds(Int64(configuration.drainTimeout * 1000))
        try await ServiceGroup(configuration: group).run()
        // Stopped: a camera recording in progress is finished, not cut off.
        for camera in cameras { await camera.shutDown() }
        services.logger.notice("stopped")
    }

    /// Starts the cameras that keep event clips (`ServerConfiguration.cameraClips`), which
    /// capture whether or not anyone watches; after interrupted clips are recovered, so a new
    /// clip is not taken for one.
    package func startEventClips() {
        for camera in cameras { camera.startEventClips() }
    }

    /// Who may use the server: its token, its own origin and `allowedOrigins`, and on
    /// loopback only loopback host names.
    var accessPolicy: AccessPolicy {
        AccessPolicy(token: configuration.token, allowedOrigins: configuration.allowedOrigins, checksHost: configuration.isLoopback)
    }

    /// The application, for `run` and for tests (HummingbirdTesting).
    package func makeApplication(onListening: @escaping @Sendable (Int) -> Void = { _ in }) -> some ApplicationProtocol {
        let router = makeRouter()
        let limits = configuration.limits, policy = accessPolicy, occupancy = occupancy
        let webSocketResponder = router.buildResponder()
        let metrics = services.metrics
        let channelConfiguration = HTTP1WebSocketUpgradeChannel.Configuration(
            http1: HTTP1Channel.Configuration(idleTimeout: .milliseconds(Int64(limits.idleTimeout * 1000))),
            // A frame is one camera picture (browsers send a message as one frame).
            ws: WebSocketServerConfiguration(maxFrameSize: limits.maximumFrameBytes + 4))
        let server = HTTPServerBuilder { responder in
            GuardedChannel(
                inner: HTTP1WebSocketUpgradeChannel(
                    responder: responder, webSocketResponder: webSocketResponder, configuration: channelConfiguration),
                makeFrontDoor: { FrontDoor(limits: limits, policy: policy, occupancy: occupancy, metrics: metrics) })
        }
        return Application(
            router: router,
            server: server,
            configuration: ApplicationConfiguration(address: .hostname(configuration.host, port: configuration.port), serverName: "kamera"),
            onServerRunning: { channel in onListening(channel.localAddress?.port ?? configuration.port) },
            logger: services.logger)
    }

    package func makeRouter() -> Router<BasicWebSocketRequestContext> {
        let router = Router(context: BasicWebSocketRequestContext.self)
        // Outermost: refusals by the access policy are counted and logged too.
        router.middlewares.add(RequestTelemetryMiddleware(metrics: services.metrics, logger: services.logger))
        router.middlewares.add(AccessMiddleware(policy: accessPolicy))
        let (admission, library, budget) = (services.admission, services.library, services.budget)
        let detect = DetectRoute(services: services)
        let generate = GenerateRoute(services: services)
        let redact = RedactRoute(services: services)
        let live = LiveSocket(services: services)
        let recordings = RecordingRoutes(library: library)
        router.post("/v1/detect") { request, context in try await detect.respond(to: request, context: context) }
        router.post("/v1/generate") { request, context in try await generate.respond(to: request, context: context) }
        router.post("/v1/redact") { request, context in try await redact.respond(to: request, context: context) }
        router.ws("/v1/live") { _, _ in
            .upgrade()
        } onUpgrade: { inbound, outbound, _ in
            try await live.run(inbound: inbound, outbound: outbound)
        }
        let cameraRoutes = CameraRoutes(cameras: cameras, services: services)
        router.get("/v1/cameras") { _, _ in try cameraRoutes.list() }
        router.post("/v1/cameras/{index}/recording") { request, context in try await cameraRoutes.startRecording(request, context: context)
        }
        router.delete("/v1/cameras/{index}/recording") { _, context in try await cameraRoutes.stopRecording(context: context) }
        let controlRoutes = CameraControlRoutes(routes: cameraRoutes)
        router.get("/v1/cameras/{index}/controls") { _, context in try controlRoutes.list(context: context) }
        router.put("/v1/cameras/{index}/controls") { request, context in try await controlRoutes.change(request, context: context) }
        router.post("/v1/cameras/{index}/photo") { _, context in try await cameraRoutes.takePhoto(context: context) }
        router.ws("/v1/cameras/{index}/live") { _, context in
            _ = try cameraRoutes.camera(context)
            return .upgrade()
        } onUpgrade: { inbound, outbound, context in
            try await cameraRoutes.live(try cameraRoutes.camera(context.requestContext), inbound: inbound, outbound: outbound)
        }
        router.get("/v1/recordings") { _, _ in try await recordings.list() }
        router.get("/v1/recordings/{id}/movie") { request, context in try await recordings.movie(request, context: context) }
        router.get("/v1/recordings/{id}/thumbnail") { _, context in try await recordings.thumbnail(context: context) }
        router.delete("/v1/recordings/{id}") { _, context in try await recordings.delete(context: context) }
        let stills = StillRoutes(library: library)
        router.get("/v1/stills") { request, _ in try await stills.list(request) }
        router.get("/v1/stills/{id}/image") { request, context in try await stills.image(request, context: context) }
        router.get("/v1/stills/{id}/thumbnail") { _, context in try await stills.thumbnail(context: context) }
        router.delete("/v1/stills/{id}") { _, context in try await stills.delete(context: context) }
        let stored = LibraryRoutes(library: library)
        router.get("/v1/codes") { request, _ in try await stored.codes(request) }
        router.get("/v1/photos") { request, _ in try await stored.photos(request) }
        router.get("/v1/face-tracks") { request, _ in try await stored.faceTracks(request) }
        let occupancy = occupancy
        router.get("/healthz") { _, _ in
            let health = Health(
                analysisSlots: admission.slots, analysesRunning: admission.inUse, connections: occupancy.open,
                memoryBudgetBytes: budget.capacity, memoryInUseBytes: budget.inUse)
            return JSONResponse.make(try JSONValueEncoder.encode(health).compact() + "\n")
        }
        let (lifecycle, metrics, minimumFree) = (lifecycle, services.metrics, configuration.recordingLimits.minimumFreeDiskSpace)
        router.get("/readyz") { _, _ in
            let readiness = Readiness(
                lifecycle: lifecycle, libraryOpen: await library.isReadable(),
                freeDiskBytes: FreeDiskSpace.bytes(onVolumeOf: library.directory.path),
                minimumFreeDiskBytes: minimumFree)
            return JSONResponse.make(
                try JSONValueEncoder.encode(readiness).compact() + "\n", status: readiness.ready ? .ok : .serviceUnavailable)
        }
        router.get("/metrics") { _, _ in
            Response(
                status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8", .cacheControl: "no-store"],
                body: ResponseBody(byteBuffer: ByteBuffer(string: metrics.exposition())))
        }
        router.get("/openapi.json") { _, _ in JSONResponse.make(OpenAPIDocument.json) }
        let token = configuration.token
        router.get("/login") { request, _ in try LoginRoute.respond(to: request, token: token) }
        for asset in WebPage.assets {
            router.get(RouterPath(asset.path)) { _, _ in
                Response(
                    status: .ok, headers: [.contentType: asset.contentType, .cacheControl: "no-cache"],
                    body: ResponseBody(byteBuffer: ByteBuffer(string: asset.body)))
            }
        }
        return router
    }
}
