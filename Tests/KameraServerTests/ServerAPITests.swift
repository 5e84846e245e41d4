import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Kamera
import KameraTestMedia
import KameraTestTiers
import NIOCore
import Testing

@testable import KameraServer

/// The HTTP API through Hummingbird's test client: every route, auth on and off, bad bodies,
/// limits, saturation and timeouts.
@Suite(.tier(.endToEnd)) struct ServerAPITests {
    static let token = "test-token-0123456789abcdef"

    func server(token: String? = nil, limits: RequestLimits = RequestLimits()) throws -> KameraServer {
        try KameraServer(
            configuration: ServerConfiguration(
                port: 0, token: token,
                dataDirectory: FileManager.default.temporaryDirectory.appendingPathComponent("kamera-server-\(UUID())"),
                limits: limits))
    }

    func json(_ response: TestResponse) throws -> [String: Any] {
        try #require(JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any])
    }

    func errorCode(_ response: TestResponse) throws -> String? {
        (try json(response)["error"] as? [String: Any])?["code"] as? String
    }

    @Test("POST /v1/detect: codes and faces in a real photo, as kamera detect reports them")
    func detect() async throws {
        let image = try ServerTestMedia.jpeg(try ServerTestMedia.frame(0))
        _ = try await server().makeApplication().test(.router) { client in
            try await client.execute(uri: "/v1/detect?barcodes&faces&name=scene.jpg", method: .post, body: ByteBuffer(bytes: image)) {
                response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType]?.hasPrefix("application/json") == true)
                let results = try #require(try json(response)["results"] as? [[String: Any]])
                let result = try #require(results.first)
                #expect(result["input"] as? String == "scene.jpg")
                #expect(result["width"] as? Int == 640 && result["height"] as? Int == 480)
                let codes = try #require(result["barcodes"] as? [[String: Any]])
                #expect(codes.map { $0["payload"] as? String } == [ServerTestMedia.qrPayload])
                let faces = try #require(result["faces"] as? [[String: Any]])
                #expect(faces.count == 1)
                let box = try #require(faces.first?["pixelBox"] as? [String: Double])
                // The face was placed centred at (180, 220), 140 px wide.
                #expect(abs(box["x"]! + box["width"]! / 2 - 180) < 20 && abs(box["y"]! + box["height"]! / 2 - 220) < 25)
                #expect(result["text"] == nil && result["rectangles"] == nil)
            }
            // No detector named: codes only, as the CLI.
            try await client.execute(uri: "/v1/detect", method: .post, body: ByteBuffer(bytes: image)) { response in
                let result = try #require((try json(response)["results"] as? [[String: Any]])?.first)
                #expect(result["barcodes"] != nil && result["faces"] == nil)
                #expect(result["input"] as? String == "body")
            }
            // Landmarks add the landmark regions.
            try await client.execute(uri: "/v1/detect?landmarks", method: .post, body: ByteBuffer(bytes: image)) { response in
                let result = try #require((try json(response)["results"] as? [[String: Any]])?.first)
                let face = try #require((result["faces"] as? [[String: Any]])?.first)
                #expect((face["landmarks"] as? [String: Any])?["leftPupil"] != nil)
            }
        }
    }

    @Test("POST /v1/generate: a PNG that reads back; bad orders are 400 with a message")
    func generate() async throws {
        _ = try await server().makeApplication().test(.router) { client in
            let order = #"{"symbology":"datamatrix","payload":"Kamera 42","moduleSize":5}"#
            let png = try await client.execute(uri: "/v1/generate", method: .post, body: ByteBuffer(string: order)) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "image/png")
                return Data(buffer: response.body)
            }
            let read = try await DetectBarcodesRequest().perform(on: try ImageDecoder.decode(png))
            #expect(read.map(\.payloadString) == ["Kamera 42"])
            for (body, expected) in [
                ("not json", "invalidArgument"), (#"{"symbology":"nope","payload":"x"}"#, "invalidArgument"),
                (#"{"symbology":"qr","payload":"x","moduleSize":0}"#, "invalidArgument"),
                (#"{"symbology":"ean13","payload":"abc"}"#, "barcodeGenerationFailed"),
                (#"{"symbology":"qr","payload":"zz","hex":true}"#, "invalidArgument"),
            ] {
                try await client.execute(uri: "/v1/generate", method: .post, body: ByteBuffer(string: body)) { response in
                    #expect(response.status == .badRequest, "\(body)")
                    let code = try errorCode(response)
                    #expect(code == expected, "\(body)")
                }
            }
        }
    }

    @Test("Bad bodies get a 4xx with a clear message: empty, text, truncated, bomb, too large, unknown query")
    func badBodies() async throws {
        let image = try ServerTestMedia.jpeg(try ServerTestMedia.frame(0))
        // The default body limit (32 MB), so the 50 MB body is refused by it.
        let limits = RequestLimits(maximumPixelCount: 20_000_000)
        _ = try await server(limits: limits).makeApplication().test(.router) { client in
            let cases: [(String, Data, HTTPResponse.Status, String)] = [
                ("/v1/detect", Data(), .badRequest, "emptyInput"),
                ("/v1/detect", Data("just some text, not an image".utf8), .unsupportedMediaType, "unsupportedFormat"),
                ("/v1/detect", image.prefix(200), .badRequest, "corruptImage"),
                ("/v1/detect", try ServerTestMedia.decompressionBomb(), .contentTooLarge, "imageTooLarge"),
                ("/v1/detect", Data(count: 50 << 20), .contentTooLarge, "bodyTooLarge"),
                ("/v1/detect?bogus", image, .badRequest, "invalidArgument"),
                ("/v1/detect?faces=maybe", image, .badRequest, "invalidArgument"),
                ("/v1/detect?effort=max", image, .badRequest, "invalidArgument"),
            ]
            for (uri, body, status, expectedCode) in cases {
                try await client.execute(uri: uri, method: .post, body: ByteBuffer(bytes: body)) { response in
                    #expect(response.status == status, "\(uri) with \(body.count) bytes")
                    let code = try errorCode(response)
                    #expect(code == expectedCode, "\(uri) with \(body.count) bytes")
                    let error = try #require(try json(response)["error"] as? [String: String])
                    #expect(!(error["message"] ?? "").isEmpty && !(error["hint"] ?? "").isEmpty)
                }
            }
            // A JPEG cut short but mostly there is analysed, with a warning.
            try await client.execute(uri: "/v1/detect", method: .post, body: ByteBuffer(bytes: image.prefix(image.count * 9 / 10))) {
                response in
                #expect(response.status == .ok)
                let result = try #require((try json(response)["results"] as? [[String: Any]])?.first)
                #expect(result["warning"] as? String != nil)
            }
            try await client.execute(uri: "/v1/nothing", method: .get) { response in #expect(response.status == .notFound) }
        }
    }

    @Test("With a token every request but the probes needs it (bearer or the /login cookie); without one the server is open")
    func authentication() async throws {
        let image = try ServerTestMedia.jpeg(try ServerTestMedia.frame(0))
        _ = try await server(token: Self.token).makeApplication().test(.router) { client in
            for uri in ["/", "/metrics", "/openapi.json", "/app.js"] {
                try await client.execute(uri: uri, method: .get) { response in
                    #expect(response.status == .unauthorized, "\(uri)")
                    let code = try errorCode(response)
                    #expect(code == "unauthorized")
                }
            }
            try await client.execute(uri: "/v1/detect", method: .post, body: ByteBuffer(bytes: image)) {
                #expect($0.status == .unauthorized)
            }
            try await client.execute(uri: "/metrics", method: .get, headers: [.authorization: "Bearer wrong-token-0123456789"]) {
                #expect($0.status == .unauthorized)
            }
            // The probes answer without it (a Kubernetes probe carries none).
            try await client.execute(uri: "/healthz", method: .get) { #expect($0.status == .ok) }
            try await client.execute(
                uri: "/v1/detect", method: .post, headers: [.authorization: "Bearer \(Self.token)"], body: ByteBuffer(bytes: image)
            ) {
                #expect($0.status == .ok)
            }
            try await client.execute(uri: "/login?token=nope", method: .get) { #expect($0.status == .unauthorized) }
            let cookie = try await client.execute(uri: "/login?token=\(Self.token)", method: .get) { response in
                #expect(response.status == .seeOther)
                #expect(response.headers[.location] == "/")
                let setCookie = try #require(response.headers[.setCookie])
                #expect(setCookie.contains("HttpOnly") && setCookie.contains("SameSite=Strict"))
                return String(setCookie.split(separator: ";")[0])
            }
            try await client.execute(uri: "/", method: .get, headers: [.cookie: cookie]) { response in
                #expect(response.status == .ok)
                #expect(String(buffer: response.body).contains("<title>Kamera</title>"))
            }
        }
        _ = try await server().makeApplication().test(.router) { client in
            try await client.execute(uri: "/healthz", method: .get) { response in
                #expect(response.status == .ok)
                let body = try json(response)
                #expect(body["status"] as? String == "ok")
            }
        }
    }

    @Test("The server refuses a public address without a token, and weak tokens")
    func configuration() throws {
        #expect(throws: KameraError.self) { try KameraServer(configuration: ServerConfiguration(host: "0.0.0.0")) }
        #expect(throws: KameraError.self) { try KameraServer(configuration: ServerConfiguration(host: "127.0.0.1", token: "short")) }
        #expect(throws: KameraError.self) { try KameraServer(configuration: ServerConfiguration(token: "has spaces in it, 1234567")) }
        #expect(throws: KameraError.self) { try KameraServer(configuration: ServerConfiguration(port: 70000)) }
        _ = try KameraServer(configuration: ServerConfiguration(host: "0.0.0.0", token: Self.token))
        _ = try KameraServer(configuration: ServerConfiguration(host: "::1"))
    }

    @Test("Saturated: API calls get 503 with Retry-After while every slot is taken, and work again after")
    func saturation() async throws {
        let server = try server(limits: RequestLimits(analysisSlots: 1))
        let image = try ServerTestMedia.jpeg(try ServerTestMedia.frame(0))
        // Hold the only slot with work that waits for the test.
        let release = DispatchSemaphore(value: 0)
        let holder = Task { try await server.services.admission.runIfFree { release.wait() } }
        while server.services.admission.inUse == 0 { try await Task.sleep(for: .milliseconds(5)) }
        _ = try await server.makeApplication().test(.router) { client in
            try await client.execute(uri: "/v1/detect", method: .post, body: ByteBuffer(bytes: image)) { response in
                #expect(response.status == .serviceUnavailable)
                #expect(response.headers[.retryAfter] == "1")
                let code = try errorCode(response)
                #expect(code == "busy")
            }
            try await client.execute(uri: "/v1/generate", method: .post, body: ByteBuffer(string: #"{"symbology":"qr","payload":"x"}"#)) {
                #expect($0.status == .serviceUnavailable)
            }
            // Health is not analysis: it answers, and shows the load.
            try await client.execute(uri: "/healthz", method: .get) { response in
                let body = try json(response)
                #expect(body["analysesRunning"] as? Int == 1)
            }
            release.signal()
            _ = try await holder.value
            try await client.execute(uri: "/v1/detect", method: .post, body: ByteBuffer(bytes: image)) { #expect($0.status == .ok) }
        }
    }

    @Test("A request that takes longer than the timeout gets 504; its slot stays taken until the work ends")
    func timeout() async throws {
        let server = try server(limits: RequestLimits(requestTimeout: 0.3, analysisSlots: 2))
        // Text recognition and the tiled face scan of a 12-megapixel scene take seconds,
        // far longer than 0.3 s even when other tests keep the timer's thread busy.
        let image = try ServerTestMedia.jpeg(try ServerTestMedia.frame(0).resized(width: 4000, height: 3000))
        _ = try await server.makeApplication().test(.router) { client in
            try await client.execute(uri: "/v1/detect?recognize&faces", method: .post, body: ByteBuffer(bytes: image)) { response in
                #expect(response.status == .gatewayTimeout)
                let code = try errorCode(response)
                #expect(code == "timeout")
            }
        }
        #expect(server.services.admission.inUse <= 1)
        while server.services.admission.inUse > 0 { try await Task.sleep(for: .milliseconds(10)) }
    }

    @Test("POST /v1/redact: the photo back in its format with its faces covered; bad bodies and options 4xx")
    func redact() async throws {
        let frame = try ServerTestMedia.frame(0)
        let image = try ServerTestMedia.jpeg(frame)
        let faces = try DetectFaceRectanglesRequest().performSynchronously(on: try Image(data: image))
        try #require(!faces.isEmpty)
        _ = try await server().makeApplication().test(.router) { client in
            try await client.execute(uri: "/v1/redact?style=fill", method: .post, body: ByteBuffer(bytes: image)) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "image/jpeg")
                #expect(response.headers[HTTPField.Name("Kamera-Redacted")!] == "face=\(faces.count)")
                let covered = try Image(data: Data(buffer: response.body)).pixelBuffer
                #expect(covered.width == frame.width && covered.height == frame.height)
                // Filled black where each face was (JPEG keeps black within a few levels).
                for face in faces {
                    let centre = face.pixelBox.center
                    let pixel = Int(centre.y) * covered.bytesPerRow + Int(centre.x) * covered.format.bytesPerPixel
                    #expect(covered.bytes[pixel] < 16, "face at \(centre)")
                }
            }
            let png = try ImageEncoder.encode(frame, as: .png)
            try await client.execute(uri: "/v1/redact?faces&codes", method: .post, body: ByteBuffer(bytes: png)) { response in
                #expect(response.status == .ok && response.headers[.contentType] == "image/png")
            }
            let cases: [(String, Data, HTTPResponse.Status, String)] = [
                ("/v1/redact", Data(), .badRequest, "emptyInput"),
                ("/v1/redact", Data("not an image".utf8), .unsupportedMediaType, "unsupportedFormat"),
                ("/v1/redact", image.prefix(image.count / 2), .badRequest, "corruptImage"),
                ("/v1/redact?style=swirl", image, .badRequest, "invalidArgument"),
                ("/v1/redact?padding=5", image, .badRequest, "invalidArgument"),
                ("/v1/redact?faces=false", image, .badRequest, "invalidArgument"),
                ("/v1/redact?barcodes", image, .badRequest, "invalidArgument"),
            ]
            for (uri, body, status, expectedCode) in cases {
                try await client.execute(uri: uri, method: .post, body: ByteBuffer(bytes: body)) { response in
                    #expect(response.status == status, "\(uri) with \(body.count) bytes")
                    let code = try errorCode(response)
                    #expect(code == expectedCode, "\(uri)")
                }
            }
        }
    }

    @Test("/openapi.json lists exactly the routes the server has")
    func openAPI() async throws {
        let server = try server()
        let routes = Set(server.makeRouter().routes.map { "\($0.method.rawValue.lowercased()) \($0.path)" })
        _ = try await server.makeApplication().test(.router) { client in
            try await client.execute(uri: "/openapi.json", method: .get) { response in
                #expect(response.status == .ok)
                let document = try json(response)
                #expect((document["openapi"] as? String)?.hasPrefix("3.") == true)
                let paths = try #require(document["paths"] as? [String: [String: Any]])
                let documented = Set(paths.flatMap { path, methods in methods.keys.map { "\($0) \(path)" } })
                #expect(documented == routes)
            }
        }
    }

    @Test("The page and its script and style are served")
    func page() async throws {
        _ = try await server().makeApplication().test(.router) { client in
            for (uri, type) in [("/", "text/html"), ("/app.js", "text/javascript"), ("/style.css", "text/css")] {
                try await client.execute(uri: uri, method: .get) { response in
                    #expect(response.status == .ok)
                    #expect(response.headers[.contentType]?.hasPrefix(type) == true)
                    #expect(response.body.readableBytes > 500)
                }
            }
        }
    }
}
