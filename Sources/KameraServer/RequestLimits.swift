import Foundation
import Kamera

/// Bounds on what one request may cost, so a bad or hostile client cannot exhaust the server.
public struct RequestLimits: Sendable {
    /// Largest request body (an uploaded image), bytes.
    public var maximumBodyBytes: Int
    /// Largest decoded image, pixels (guards against decompression bombs).
    public var maximumPixelCount: Int
    /// Longest a `/v1/` call may take before the client gets 504, seconds.
    public var requestTimeout: Double
    /// Analyses running or waiting at once; beyond it API calls get 503 and live frames are dropped.
    public var analysisSlots: Int
    /// Largest live frame (JPEG or WebP) over the WebSocket, bytes.
    public var maximumFrameBytes: Int
    /// Connections open at once; beyond it a new one gets 503 and is closed (each holds a
    /// file descriptor and buffers).
    public var maximumConnections: Int
    /// Seconds a new connection has to send its whole first request head (slow-header attacks,
    /// silent connections).
    public var headerTimeout: Double
    /// Seconds a request body may take to arrive once its head has.
    public var bodyTimeout: Double
    /// Seconds a keep-alive connection may stay idle between requests.
    public var idleTimeout: Double
    /// Largest request head (request line and headers), bytes.
    public var maximumHeadBytes: Int
    /// Bytes of request bodies and decoded pixels in flight at once, over every request;
    /// beyond it an upload gets 503 instead of the server growing.
    public var memoryBudget: Int

    public init(
        maximumBodyBytes: Int = 32 << 20, maximumPixelCount: Int = 50_000_000, requestTimeout: Double = 30,
        analysisSlots: Int = 2 * ProcessInfo.processInfo.activeProcessorCount + 2, maximumFrameBytes: Int = 4 << 20,
        maximumConnections: Int = 200, headerTimeout: Double = 10, bodyTimeout: Double = 30, idleTimeout: Double = 60,
        maximumHeadBytes: Int = 64 << 10, memoryBudget: Int = 768 << 20
    ) {
        self.maximumBodyBytes = maximumBodyBytes
        self.maximumPixelCount = maximumPixelCount
        self.requestTimeout = requestTimeout
        self.analysisSlots = analysisSlots
        self.maximumFrameBytes = maximumFrameBytes
        self.maximumConnections = maximumConnections
        self.headerTimeout = headerTimeout
        self.bodyTimeout = bodyTimeout
        self.idleTimeout = idleTimeout
        self.maximumHeadBytes = maximumHeadBytes
        self.memoryBudget = memoryBudget
    }

    func validate() throws {
        guard maximumBodyBytes > 0, maximumPixelCount > 0, maximumFrameBytes > 0 else {
            throw KameraError.invalidArgument("body, pixel and frame limits must be positive")
        }
        guard requestTimeout > 0, requestTimeout.isFinite else { throw KameraError.invalidArgument("the request timeout must be positive") }
        guard analysisSlots >= 1 else { throw KameraError.invalidArgument("at least one analysis slot is needed") }
        guard maximumConnections >= 1 else { throw KameraError.invalidArgument("at least one connection must be allowed") }
        for (name, seconds) in [("header", headerTimeout), ("body", bodyTimeout), ("idle", idleTimeout)] {
            guard seconds.isFinite, seconds > 0, seconds <= 86_400 else {
                throw KameraError.invalidArgument("the \(name) timeout must be 0 < seconds ≤ 86400")
            }
        }
        guard maximumHeadBytes >= 1024 else { throw KameraError.invalidArgument("the request head limit must be at least 1024 bytes") }
        guard memoryBudget >= maximumBodyBytes else {
            throw KameraError.invalidArgument("the memory budget must hold at least one largest body (\(maximumBodyBytes) bytes)")
        }
    }
}
