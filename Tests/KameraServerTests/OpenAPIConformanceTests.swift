import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Kamera
import KameraReports
import KameraTestMedia
import KameraTestTiers
import Testing

@testable import KameraServer

/// Real responses checked against `/openapi.json`'s schemas: every field a record sends is
/// described (objects are closed), of the type described, with the values its enumerations
/// allow — so the document cannot drift from the types.
@Suite(.tier(.endToEnd)) struct OpenAPIConformanceTests {
    /// A small JSON Schema checker: $ref, type (one or several), properties, required,
    /// additionalProperties false, items, enum, minItems and maxItems. Returns what is wrong.
    struct SchemaChecker {
        let schemas: [String: Any]

        func problems(_ value: Any?, _ schema: [String: Any], at path: String = "$") -> [String] {
            if let reference = schema["$ref"] as? String {
                let name = String(reference.split(separator: "/").last ?? "")
                guard let target = schemas[name] as? [String: Any] else { return ["\(path): unknown \(reference)"] }
                return problems(value, target, at: path)
            }
            var found: [String] = []
            let types = (schema["type"] as? [String]) ?? (schema["type"] as? String).map { [$0] } ?? []
            if !types.isEmpty, !types.contains(where: { Self.matches(value, $0) }) {
                return ["\(path): \(String(describing: value).prefix(60)) is not \(types)"]
            }
            if let allowed = schema["enum"] as? [String], let text = value as? String, !allowed.contains(text) {
                found.append("\(path): '\(text)' is not one of \(allowed.prefix(8))…")
            }
            if let object = value as? [String: Any] {
                let properties = schema["properties"] as? [String: Any] ?? [:]
                for key in schema["required"] as? [String] ?? [] where object[key] == nil { found.append("\(path): missing \(key)") }
                for (key, item) in object {
                    if let property = properties[key] as? [String: Any] {
                        found += problems(item is NSNull ? nil : item, property, at: "\(path).\(key)")
                    } else if schema["additionalProperties"] as? Bool == false {
                        found.append("\(path): '\(key)' is not described")
                    }
                }
            }
            if let array = value as? [Any] {
                if let minimum = schema["minItems"] as? Int, array.count < minimum { found.append("\(path): fewer than \(minimum) items") }
                if let maximum = schema["maxItems"] as? Int, array.count > maximum { found.append("\(path): more than \(maximum) items") }
                if let items = schema["items"] as? [String: Any] {
                    for (index, item) in array.enumerated() { found += problems(item, items, at: "\(path)[\(index)]") }
                }
            }
            return found
        }

        static func matches(_ value: Any?, _ type: String) -> Bool {
            switch type {
            case "null": return value == nil
            case "string": return value is String
            case "boolean": return (value as? NSNumber).map(Self.isBool) ?? (value is Bool)
            case "integer": return (value as? NSNumber).map { !Self.isBool($0) && $0.doubleValue == $0.doubleValue.rounded() } ?? false
            case "number": return (value as? NSNumber).map { !Self.isBool($0) } ?? false
            case "array": return value is [Any]
            case "object": return value is [String: Any]
            default: return false
            }
        }

        /// Foundation hands JSON's true and false over as NSNumbers of C type `char`.
        static func isBool(_ number: NSNumber) -> Bool { String(cString: number.objCType) == "c" }
    }

    func server() throws -> KameraServer {
        try KameraServer(
            configuration: ServerConfiguration(
                port: 0, dataDirectory: FileManager.default.temporaryDirectory.appendingPathComponent("kamera-openapi-\(UUID())")))
    }

    @Test("Detect results, errors, health and the stored lists match their schemas")
    func responsesMatchTheDocument() async throws {
        let document = try #require(try JSONSerialization.jsonObject(with: Data(OpenAPIDocument.json.utf8)) as? [String: Any])
        let components = try #require(document["components"] as? [String: Any])
        let checker = SchemaChecker(schemas: try #require(components["schemas"] as? [String: Any]))
        let paths = try #require(document["paths"] as? [String: [String: Any]])
        /// The 200 schema of `GET path`.
        func listSchema(_ path: String) throws -> [String: Any] {
            let get = try #require(paths[path]?["get"] as? [String: Any])
            let ok = try #require((get["responses"] as? [String: Any])?["200"] as? [String: Any])
            return try #require(((ok["content"] as? [String: Any])?["application/json"] as? [String: Any])?["schema"] as? [String: Any])
        }
        let image = try ServerTestMedia.jpeg(try ServerTestMedia.frame(0))
        // (what, body, the schema: a component's name or the path whose GET answers it)
        let checked = try await server().makeApplication().test(.router) { client -> [(String, Data, String)] in
            var checked: [(String, Data, String)] = []
            try await client.execute(
                uri: "/v1/detect?barcodes&faces&landmarks&text&rectangles&maxRectangles=0", method: .post, body: ByteBuffer(bytes: image)
            ) { response in
                #expect(response.status == .ok)
                let body = try JSONSerialization.jsonObject(with: Data(buffer: response.body))
                let result = try #require(((body as? [String: Any])?["results"] as? [[String: Any]])?.first)
                // Every kind of record is there to be checked.
                #expect((result["barcodes"] as? [Any])?.isEmpty == false && (result["faces"] as? [Any])?.isEmpty == false)
                #expect(((result["faces"] as? [[String: Any]])?.first?["landmarks"]) != nil)
                #expect((result["rectangles"] as? [Any]) != nil && (result["text"] as? [Any]) != nil)
                checked.append(("detect", Data(buffer: response.body), "DetectResults"))
            }
            try await client.execute(uri: "/v1/detect?personMask=fast&bodies&hands", method: .post, body: ByteBuffer(bytes: image)) {
                response in
                #expect(response.status == .ok)
                let body = try JSONSerialization.jsonObject(with: Data(buffer: response.body))
                let result = try #require(((body as? [String: Any])?["results"] as? [[String: Any]])?.first)
                #expect((result["personMask"] as? [String: Any])?["width"] as? Int == 256)
                checked.append(("detect with a person mask", Data(buffer: response.body), "DetectResults"))
            }
            for (uri, method) in [
                ("/v1/detect?faceMode=round", HTTPRequest.Method.post), ("/v1/codes?limit=abc", .get), ("/v1/nope", .get),
            ] {
                try await client.execute(uri: uri, method: method, body: ByteBuffer(bytes: image)) { response in
                    #expect(response.status.code >= 400)
                    if response.status != .notFound {
                        checked.append((uri, Data(buffer: response.body), "Error"))
                    }
                }
            }
            for path in ["/healthz", "/v1/photos", "/v1/codes", "/v1/face-tracks", "/v1/recordings", "/v1/cameras", "/v1/stills"] {
                try await client.execute(uri: path, method: .get) { response in
                    #expect(response.status == .ok, "\(path)")
                    checked.append((path, Data(buffer: response.body), path))
                }
            }
            // Not ready here (nothing warmed the models), and the body says why, in its schema.
            try await client.execute(uri: "/readyz", method: .get) { response in
                #expect(response.status == .serviceUnavailable)
                checked.append(("/readyz", Data(buffer: response.body), "Readiness"))
            }
            // The photos analysed above are listed, newest first: the first one is second.
            try await client.execute(uri: "/v1/photos?limit=1&offset=1", method: .get) { response in
                let body = try #require(try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any])
                #expect((body["photos"] as? [[String: Any]])?.first?["faces"] as? Int == 1)
                #expect(body["next"] as? String == "/v1/photos?limit=1&offset=2")
            }
            // A footballer in metres: the 3-D body record checked against its schema (after the
            // list, whose order another photo would change).
            let player = try Data(contentsOf: SampleMedia.url("messi5.jpg"))
            try await client.execute(uri: "/v1/detect?bodies3D", method: .post, body: ByteBuffer(bytes: player)) { response in
                #expect(response.status == .ok)
                let body = try JSONSerialization.jsonObject(with: Data(buffer: response.body))
                let result = try #require(((body as? [String: Any])?["results"] as? [[String: Any]])?.first)
                #expect((result["bodies3D"] as? [Any])?.count == 1)
                checked.append(("detect with 3-D bodies", Data(buffer: response.body), "DetectResults"))
            }
            return checked
        }
        #expect(checked.count == 13)
        for (name, body, schema) in checked {
            let value = try JSONSerialization.jsonObject(with: body)
            let problems = checker.problems(
                value, schema.hasPrefix("/") ? try listSchema(schema) : ["$ref": "#/components/schemas/\(schema)"])
            #expect(problems.isEmpty, "\(name): \(problems.prefix(5))")
        }
    }

    @Test("Every analysis option is a documented query parameter of /v1/detect")
    func optionsAreParameters() throws {
        let document = try #require(try JSONSerialization.jsonObject(with: Data(OpenAPIDocument.json.utf8)) as? [String: Any])
        let detect = try #require((document["paths"] as? [String: Any])?["/v1/detect"] as? [String: Any])
        let parameters = try #require((detect["post"] as? [String: Any])?["parameters"] as? [[String: Any]])
        let names = Set(parameters.compactMap { $0["name"] as? String })
        #expect(names == Set(AnalysisOptions.CodingKeys.allCases.map(\.rawValue) + ["name"]))
        #expect(names.count == AnalysisOptions.CodingKeys.allCases.count + 1)
    }
}
