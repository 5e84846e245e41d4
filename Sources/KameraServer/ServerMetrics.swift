import CoreMetrics
import Foundation
import Prometheus

/// What one server counts, for `GET /metrics` (Prometheus text format): requests by route
/// and status with their latency, requests refused as unavailable (503) and why, the analysis
/// queue, live sessions and their frames, recordings and the bytes they wrote, and how long
/// each model took to load.
///
/// The metrics are swift-metrics objects made by a `PrometheusMetricsFactory` over this
/// server's own registry, not the process-wide `MetricsSystem`: two servers in one process
/// (the tests run many) each report only their own traffic, and an app embedding Kamera keeps
/// its own metrics backend.
final class ServerMetrics: Sendable {
    /// Where every series lives; `/metrics` prints it.
    let registry = PrometheusCollectorRegistry()
    private let factory: PrometheusMetricsFactory

    /// Latency buckets of a request or a wait for an analysis slot: 1 ms to a minute (a
    /// thorough scan of a large photo takes seconds; a live frame waits milliseconds).
    static let latencyBuckets: [Duration] = [
        .milliseconds(1), .milliseconds(5), .milliseconds(10), .milliseconds(25), .milliseconds(50), .milliseconds(100),
        .milliseconds(250), .milliseconds(500), .seconds(1), .milliseconds(2500), .seconds(5), .seconds(10), .seconds(30),
        .seconds(60),
    ]

    /// Gauges (not counters): they go up and down.
    let analysesWaiting: Meter
    let analysesRunning: Meter
    let liveSessions: Meter
    let recordingsActive: Meter
    private let analysisWait: CoreMetrics.Timer
    private let framesAnalysed: CoreMetrics.Counter
    private let framesDropped: CoreMetrics.Counter
    private let recordingBytes: CoreMetrics.Counter

    init() {
        var factory = PrometheusMetricsFactory(registry: registry)
        factory.defaultDurationHistogramBuckets = Self.latencyBuckets
        self.factory = factory
        analysesWaiting = Meter(label: "kamera_analysis_queue_depth", factory: factory)
        analysesRunning = Meter(label: "kamera_analyses_running", factory: factory)
        liveSessions = Meter(label: "kamera_live_sessions", factory: factory)
        recordingsActive = Meter(label: "kamera_recordings_active", factory: factory)
        analysisWait = CoreMetrics.Timer(label: "kamera_analysis_wait_seconds", factory: factory)
        framesAnalysed = CoreMetrics.Counter(label: "kamera_live_frames_total", dimensions: [("outcome", "analysed")], factory: factory)
        framesDropped = CoreMetrics.Counter(label: "kamera_live_frames_total", dimensions: [("outcome", "dropped")], factory: factory)
        recordingBytes = CoreMetrics.Counter(label: "kamera_recording_bytes_total", factory: factory)
        // Every series exists from the start (at 0), so a dashboard and an alert see it before
        // the first event.
        for gauge in [analysesWaiting, analysesRunning, liveSessions, recordingsActive] { gauge.set(0) }
        unavailable(code: "busy", count: 0)
    }

    /// One HTTP request answered. `route` is the matched route's pattern (`/v1/recordings/{id}`),
    /// never the raw path, so a scan of random URLs cannot grow the series without bound.
    func requestFinished(route: String, method: String, status: Int, duration: Duration) {
        CoreMetrics.Counter(
            label: "kamera_http_requests_total", dimensions: [("route", route), ("method", method), ("status", String(status))],
            factory: factory
        ).increment()
        CoreMetrics.Timer(label: "kamera_http_request_duration_seconds", dimensions: [("route", route)], factory: factory)
            .recordNanoseconds(duration.nanoseconds)
    }

    /// A request or connection refused as unavailable (503), by the error code it got
    /// (`busy`: slots, memory or connections taken; `cameraUnavailable`; `missingResource`; …).
    func unavailable(code: String, count: Int64 = 1) {
        CoreMetrics.Counter(label: "kamera_http_unavailable_total", dimensions: [("code", code)], factory: factory)
            .increment(by: count)
    }

    /// An analysis waited `wait` for its turn (a slot and an analysis thread).
    func analysisStarted(after wait: Duration) { analysisWait.recordNanoseconds(wait.nanoseconds) }

    /// Live frames analysed, or replaced by a newer one before their turn.
    func liveFrames(analysed: Bool, count: Int = 1) {
        guard count > 0 else { return }
        (analysed ? framesAnalysed : framesDropped).increment(by: Int64(count))
    }

    /// Bytes a recording wrote to disk.
    func recordingWrote(bytes: Int64) { recordingBytes.increment(by: bytes) }

    /// How long `model` took to load (read, verify, compile) when the server started.
    func modelLoaded(_ model: String, seconds: Double) {
        Gauge(label: "kamera_model_load_seconds", dimensions: [("model", model)], factory: factory).record(seconds)
    }

    /// The whole registry in Prometheus' text format (version 0.0.4).
    func exposition() -> String { registry.emitToString() }
}

extension Duration {
    /// Whole nanoseconds, saturating (a duration is never near 292 years here).
    var nanoseconds: Int64 {
        let (seconds, attoseconds) = components
        let (product, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        return overflow ? .max : product.addingReportingOverflow(attoseconds / 1_000_000_000).partialValue
    }
}
