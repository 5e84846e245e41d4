import Foundation
import HTTPTypes
import HummingbirdTesting
import HummingbirdWSTesting
import HummingbirdWebSocket
import Kamera
import KameraTestMedia
import KameraTestTiers
import NIOCore
import Testing
import WSClient

@testable import KameraServer

/// `/metrics` scraped as Prometheus would, around real traffic: photos analysed, a live
/// session with a recording; every series is there from the start and moves. `/readyz` and
/// the request ID ride along. (Connections refused beyond the limit, counted as unavailable,
/// are checked against a real `kamera serve` in Tests/security and Tests/fleet.)
@Suite(.tier(.endToEnd), .serialized) struct ServerMetricsTests {
    /// The samples of a Prometheus text exposition, by series (`name{labels}`).
    static func samples(_ text: String) -> [String: Double] {
        var samples: [String: Double] = [:]
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            guard let space = line.lastIndex(of: " "), let value = Double(line[line.index(after: space)...]) else { continue }
            samples[String(line[..<space])] = value
        }
        return samples
    }

    static func scrape(_ client: some TestClientProtocol) async throws -> [String: Double] {
        try await client.execute(uri: "/metrics", method: .get) { response in
            #expect(response.status == .ok)
            #expect(response.headers[.contentType]?.hasPrefix("text/plain; version=0.0.4") == true)
            return samples(String(buffer: response.body))
        }
    }

    @Test("Every series exists at 0 before traffic, then counts requests, latency, analysis waits, live frames, recordings and model loads")
    func seriesMove() async throws {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("kamera-metrics-\(UUID())")
        let server = try KameraServer(configuration: ServerConfiguration(port: 0, dataDirectory: data))
        let photo = try ServerTestMedia.jpeg(try ServerTestMedia.frame(0))
        let frames = try (0..<10).map { try ServerTestMedia.jpeg(try ServerTestMedia.frame($0)) }
        _ = try await server.makeApplication().test(.live) { client in
            let before = try await Self.scrape(client)
            for series in [
                "kamera_analysis_queue_depth", "kamera_analyses_running", "kamera_live_sessions", "kamera_recordings_active",
                #"kamera_live_frames_total{outcome="analysed"}"#, #"kamera_live_frames_total{outcome="dropped"}"#,
                "kamera_recording_bytes_total", #"kamera_http_unavailable_total{code="busy"}"#,
            ] {
                #expect(before[series] == 0, "\(series) should be exported at 0 from the start")
            }
            // Not ready until the models are loaded; then their load times are exported.
            try await client.execute(uri: "/readyz", method: .get) { response in
                #expect(response.status == .serviceUnavailable)
                #expect(String(buffer: response.body).contains("the models are still loading"))
            }
            await server.lifecycle.warmUp(metrics: server.services.metrics)
            try await client.execute(uri: "/readyz", method: .get) { response in
                #expect(response.status == .ok, "\(String(buffer: response.body))")
            }
            // Photos: one analysed (200), one refused (415); a request ID given is echoed, none given gets one.
            try await client.execute(
                uri: "/v1/detect?faces", method: .post, headers: [HTTPField.Name("X-Request-ID")!: "trace-42"],
                body: ByteBuffer(bytes: photo)
            ) { response in
                #expect(response.status == .ok)
                #expect(response.headers[HTTPField.Name("X-Request-ID")!] == "trace-42")
            }
            try await client.execute(uri: "/v1/detect", method: .post, body: ByteBuffer(string: "not an image")) { response in
                #expect(response.status == .unsupportedMediaType)
                #expect(response.headers[HTTPField.Name("X-Request-ID")!]?.count == 16, "an error answer carries its ID too")
            }
            // A live session recording a burst of frames: some are analysed, some replaced by newer ones.
            try await client.ws("/v1/live", configuration: WebSocketClientConfiguration(maxFrameSize: 1 << 22)) { inbound, outbound, _ in
                var messages = inbound.messages(maxSize: 1 << 24).makeAsyncIterator()
                try await outbound.write(.text(#"{"record":"start","maxSeconds":60}"#))
                for (index, frame) in frames.enumerated() {
                    try await outbound.write(.binary(LiveSocketTests.message(UInt32(index), frame)))
                }
                var answered = 0
                while answered < frames.count {
                    if case .text = try await messages.next() { answered += 1 }
                }
                let during = try await Self.scrape(client)
                #expect(during["kamera_live_sessions"] == 1)
                #expect(during["kamera_recordings_active"] == 1)
                try await outbound.write(.text(#"{"record":"stop"}"#))
                try await outbound.write(.binary(LiveSocketTests.message(99, frames[0])))
                while true {
                    let message = try LiveSocketTests.decode(try await messages.next())
                    if message["recording"] as? [String: Any] != nil { break }
                }
                try await outbound.close(.normalClosure, reason: nil)
            }
            // The session's end is counted once the socket's task has finished.
            var after = try await Self.scrape(client)
            for _ in 0..<50 where after["kamera_live_sessions"] != 0 {
                try await Task.sleep(for: .milliseconds(100))
                after = try await Self.scrape(client)
            }
            #expect(after[#"kamera_http_requests_total{route="/v1/detect",method="POST",status="200"}"#] == 1)
            #expect(after[#"kamera_http_requests_total{route="/v1/detect",method="POST",status="415"}"#] == 1)
            #expect(after[#"kamera_http_requests_total{route="/readyz",method="GET",status="503"}"#] == 1)
            #expect(after[#"kamera_http_request_duration_seconds_count{route="/v1/detect"}"#] == 2)
            #expect((after[#"kamera_http_request_duration_seconds_sum{route="/v1/detect"}"#] ?? 0) > 0)
            let analysed = after[#"kamera_live_frames_total{outcome="analysed"}"#] ?? 0
            let dropped = after[#"kamera_live_frames_total{outcome="dropped"}"#] ?? 0
            #expect(analysed >= 2 && dropped >= 1 && analysed + dropped <= Double(frames.count + 1))
            #expect((after["kamera_analysis_wait_seconds_count"] ?? 0) >= analysed + 1)
            #expect(after["kamera_live_sessions"] == 0 && after["kamera_recordings_active"] == 0)
            #expect(after["kamera_analysis_queue_depth"] == 0 && after["kamera_analyses_running"] == 0)
            // The bytes counted are the movie's on disk.
            let movies = try FileManager.default.contentsOfDirectory(
                at: data.appendingPathComponent("recordings"), includingPropertiesForKeys: [.fileSizeKey]
            ).filter { $0.pathExtension == "mp4" }
            let size = try #require(movies.first).resourceValues(forKeys: [.fileSizeKey]).fileSize ?? 0
            #expect(movies.count == 1 && after["kamera_recording_bytes_total"] == Double(size) && size > 10_000)
            for model in ServerLifecycle.warmedModels {
                #expect((after[#"kamera_model_load_seconds{model="\#(model.fileName)"}"#] ?? 0) > 0)
            }
        }
    }

    @Test("With a token, the probes answer without it and /metrics needs it")
    func probesAndToken() async throws {
        let token = "metrics-token-0123456789"
        let server = try KameraServer(
            configuration: ServerConfiguration(
                port: 0, token: token,
                dataDirectory: FileManager.default.temporaryDirectory.appendingPathComponent("kamera-metrics-\(UUID())")))
        _ = try await server.makeApplication().test(.router) { client in
            try await client.execute(uri: "/metrics", method: .get, headers: [.authorization: "Bearer \(token)"]) { response in
                #expect(response.status == .ok)
                #expect(Self.samples(String(buffer: response.body))["kamera_live_sessions"] == 0)
            }
            try await client.execute(uri: "/metrics", method: .get) { #expect($0.status == .unauthorized) }
            try await client.execute(uri: "/healthz", method: .get) { #expect($0.status == .ok) }
            try await client.execute(uri: "/readyz", method: .get) { response in
                // Reachable without the token; not ready, as nothing warmed the models here.
                #expect(response.status == .serviceUnavailable)
            }
        }
    }
}
