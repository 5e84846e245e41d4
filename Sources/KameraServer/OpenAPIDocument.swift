import Kamera
import KameraReports

/// The OpenAPI 3.1 description of the server's routes, served at `/openapi.json`, built from
/// the types the routes use (`OpenAPISchemas`, `AnalysisOptions.CodingKeys`); tests check that
/// it lists exactly the routes the router has and that real responses match its schemas.
enum OpenAPIDocument {
    static let json: String = document.rendered() + "\n"

    static var document: JSONValue {
        [
            "openapi": "3.1.0",
            "info": [
                "title": "Kamera server", "version": "1",
                "description": """
                Barcodes, faces, text and rectangles in images (the same JSON as `kamera detect`), barcode generation, \
                live analysis of camera frames over a WebSocket, and what the server stored. When the server was started with \
                a token, every request needs `Authorization: Bearer TOKEN` or the cookie set by /login. Requests that change \
                state and WebSocket upgrades from another web origin get 403 (forbiddenOrigin), as do requests to a loopback \
                server under another host name.
                """,
            ],
            "components": [
                "securitySchemes": [
                    "bearer": ["type": "http", "scheme": "bearer"],
                    "cookie": ["type": "apiKey", "in": "cookie", "name": .string(AccessPolicy.cookieName)],
                ],
                "schemas": .object(OpenAPISchemas.all),
            ],
            "security": [["bearer": []], ["cookie": []], [:]],
            "paths": .object(paths),
        ]
    }

    /// A response with a JSON body of `schema`.
    static func json(_ description: String, _ schema: JSONValue) -> JSONValue {
        ["description": .string(description), "content": ["application/json": ["schema": schema]]]
    }

    /// A failure response: the Error schema.
    static func failure(_ description: String) -> JSONValue { json(description, OpenAPISchemas.ref("Error")) }

    static func parameter(_ name: String, in place: String, _ schema: JSONValue, _ description: String, required: Bool = false) -> JSONValue
    {
        ["name": .string(name), "in": .string(place), "required": .bool(required), "schema": schema, "description": .string(description)]
    }

    static let pathIndex = parameter("index", in: "path", OpenAPISchemas.integer, "the camera's number", required: true)
    static let pathID = parameter("id", in: "path", OpenAPISchemas.string, "the recording's id", required: true)
    static let unauthorized = failure("the token is missing or wrong")
    static let forbidden = failure("another web origin or host name (forbiddenOrigin)")
    static let busy: JSONValue = [
        "description": "every analysis slot or the memory budget is taken; retry after Retry-After seconds",
        "headers": ["Retry-After": ["schema": OpenAPISchemas.integer]],
        "content": ["application/json": ["schema": OpenAPISchemas.ref("Error")]],
    ]

    /// `POST /v1/detect`'s query parameters: every analysis option, and `name`.
    static var detectParameters: [JSONValue] {
        AnalysisOptions.CodingKeys.allCases.map { key in
            var schema = key.schema
            // Query lists are comma-separated; a detector flag may be given without a value.
            if case .object(let members) = schema, members.contains(where: { $0.0 == "type" && $0.1.isArray }) {
                schema = ["type": "string", "description": "comma-separated"]
            }
            var item = parameter(key.rawValue, in: "query", schema, key.help)
            if case .object(var members) = item, case .object(let schemaMembers) = key.schema,
                schemaMembers.contains(where: { $0.0 == "type" && $0.1.isBoolean })
            {
                members.append(("allowEmptyValue", true))
                item = .object(members)
            }
            return item
        } + [parameter("name", in: "query", OpenAPISchemas.string, "reported as the result's input (default: body)")]
    }

    /// `POST /v1/redact`'s query parameters: the redaction options (video-only ones left out).
    static var redactParameters: [JSONValue] {
        RedactionOptions.CodingKeys.allCases.filter { ![.follow, .hold, .lead, .tiles].contains($0) }.map { key in
            var item = parameter(key.rawValue, in: "query", key.schema, key.help)
            if case .object(var members) = item, case .object(let schemaMembers) = key.schema,
                schemaMembers.contains(where: { $0.0 == "type" && $0.1.isBoolean })
            {
                members.append(("allowEmptyValue", true))
                item = .object(members)
            }
            return item
        }
    }

    /// `{"key":[Item]}`.
    static func list(_ key: String, _ item: String) -> JSONValue {
        OpenAPISchemas.object([(key, OpenAPISchemas.array(OpenAPISchemas.ref(item)))], required: [key])
    }

    /// `{"key":Item}`.
    static func single(_ key: String, _ item: String) -> JSONValue {
        OpenAPISchemas.object([(key, OpenAPISchemas.ref(item))], required: [key])
    }

    /// A paged list of what the library stored, newest first.
    static func stored(_ path: String, _ key: String, _ item: String, _ summary: String) -> (String, JSONValue) {
        let page = OpenAPISchemas.object(
            [(key, OpenAPISchemas.array(OpenAPISchemas.ref(item))), ("next", OpenAPISchemas.nullable("string"))], required: [key, "next"])
        return (
            path,
            [
                "get": [
                    "summary": .string(summary + ", newest first, a page at a time"),
                    "parameters": [
                        parameter(
                            "limit", in: "query",
                            ["type": "integer", "minimum": 1, "maximum": .int(PageRequest.maximumLimit), "default": 1000], "rows per page"),
                        parameter("offset", in: "query", ["type": "integer", "minimum": 0, "default": 0], "rows skipped"),
                    ],
                    "responses": [
                        "200": json("a page; next is the following page's path, null on the last", page),
                        "400": failure("limit or offset is not valid"),
                    ],
                ]
            ]
        )
    }
}

extension JSONValue {
    fileprivate var isArray: Bool {
        if case .string("array") = self { return true }
        return false
    }

    fileprivate var isBoolean: Bool {
        if case .string("boolean") = self { return true }
        return false
    }
}
