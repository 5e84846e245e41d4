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

    public init(
        maximumBodyBytes: Int = 32 << 20, maximumPixelCount: Int = 50_000_000, requestTimeout: Double = 30,
        analysisSlots: Int = 2 * ProcessInfo.processInfo.activeProcessorCount + 2, maximumFrameBytes: Int = 4 << 20
    ) {
        self.maximumBodyBytes = maximumBodyBytes
        self.maximumPixelCount = maximumPixelCount
        self.requestTimeout = requestTimeout
        self.analysisSlots = analysisSlots
        self.maximumFrameBytes = maximumFrameBytes
    }

    func validate() throws {
        guard maximumBodyBytes > 0, maximumPixelCount > 0, maximumFrameBytes > 0 else {
            throw KameraError.invalidArgument("body, pixel and frame limits must be positive")
        }
        guard requestTimeout > 0, requestTimeout.isFinite else { throw KameraError.invalidArgument("the request timeout must be positive") }
        guard analysisSlots >= 1 else { throw KameraError.invalidArgument("at least one analysis slot is needed") }
    }
}
