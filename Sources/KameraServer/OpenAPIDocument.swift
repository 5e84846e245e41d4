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

    static var paths: [(String, JSONValue)] {
        [
            (
                "/v1/detect",
                [
                    "post": [
                        "summary": "Analyse one image (JPEG, PNG or WebP)",
                        "parameters": .array(detectParameters),
                        "requestBody": [
                            "required": true,
                            "content": ["image/jpeg": [:], "image/png": [:], "image/webp": [:], "application/octet-stream": [:]],
                        ],
                        "responses": [
                            "200": json("the results, as kamera detect prints them", OpenAPISchemas.ref("DetectResults")),
                            "400": failure("the body or query is not valid"), "401": unauthorized, "403": forbidden,
                            "408": failure("the body did not arrive in time"), "413": failure("the body or the decoded image is too large"),
                            "415": failure("not an image format Kamera decodes"), "503": busy,
                            "504": failure("the analysis took longer than the request timeout"),
                        ],
                    ]
                ]
            ),
            (
                "/v1/generate",
                [
                    "post": [
                        "summary": "Draw a barcode as a PNG",
                        "requestBody": [
                            "required": true, "content": ["application/json": ["schema": OpenAPISchemas.ref("GenerateOrder")]],
                        ],
                        "responses": [
                            "200": ["description": "the symbol", "content": ["image/png": [:]]], "400": failure("the order is not valid"),
                            "401": unauthorized, "403": forbidden, "503": busy,
                        ],
                    ]
                ]
            ),
            ("/v1/live", ["get": LiveSocketDescription.browser]),
            (
                "/v1/cameras",
                [
                    "get": [
                        "summary": "The server's cameras (kamera serve --camera)",
                        "responses": ["200": json("the cameras", list("cameras", "Camera"))],
                    ]
                ]
            ),
            (
                "/v1/cameras/{index}/recording",
                [
                    "post": [
                        "summary": "Start recording every frame of a server camera at its full size and rate",
                        "parameters": [
                            pathIndex,
                            parameter("maxSeconds", in: "query", ["type": "number", "exclusiveMinimum": 0], "a lower duration limit"),
                            parameter("maxMegabytes", in: "query", ["type": "number", "exclusiveMinimum": 0], "a lower size limit"),
                        ],
                        "responses": [
                            "201": json("listed as being written", single("recording", "Recording")),
                            "400": failure("a limit is not valid"),
                            "403": forbidden, "404": failure("no such camera"), "409": failure("already recording (alreadyRecording)"),
                        ],
                    ],
                    "delete": [
                        "summary": "Stop the camera's recording and return its finished entry",
                        "parameters": [pathIndex],
                        "responses": [
                            "200": json("the finished recording", single("recording", "Recording")),
                            "400": failure("nothing was recorded"), "403": forbidden, "404": failure("no such camera"),
                            "409": failure("not recording (notRecording)"), "504": failure("the camera delivered no frame to end it on"),
                            "507": failure("nothing was recorded: the disk is full or below its free-space minimum"),
                        ],
                    ],
                ]
            ),
            ("/v1/cameras/{index}/live", ["get": LiveSocketDescription.camera]),
            (
                "/v1/recordings",
                [
                    "get": [
                        "summary": "Recordings, newest first",
                        "responses": ["200": json("the recordings", list("recordings", "Recording"))],
                    ]
                ]
            ),
            (
                "/v1/recordings/{id}",
                [
                    "delete": [
                        "summary": "Delete a recording and its files", "parameters": [pathID],
                        "responses": ["204": ["description": "deleted"], "403": forbidden, "404": failure("no such recording")],
                    ]
                ]
            ),
            (
                "/v1/recordings/{id}/movie",
                [
                    "get": [
                        "summary": "The recording's fragmented MP4 (byte ranges supported)",
                        "parameters": [
                            pathID, parameter("Range", in: "header", OpenAPISchemas.string, "bytes=A-B"),
                            parameter(
                                "download", in: "query", OpenAPISchemas.string,
                                "present: sent as an attachment named kamera-DATE.mp4 (Content-Disposition)"),
                        ],
                        "responses": [
                            "200": ["description": "the movie", "content": ["video/mp4": [:]]],
                            "206": ["description": "the requested range", "content": ["video/mp4": [:]]],
                            "404": failure("no such recording"),
                        ],
                    ]
                ]
            ),
            (
                "/v1/recordings/{id}/thumbnail",
                [
                    "get": [
                        "summary": "The recording's thumbnail (at most 100 pixels wide, rotation applied)", "parameters": [pathID],
                        "responses": [
                            "200": ["description": "PNG", "content": ["image/png": [:]]],
                            "404": failure("no such recording or no thumbnail"),
                        ],
                    ]
                ]
            ),
            stored("/v1/codes", "codes", "Code", "Codes first seen in live sessions (one per session, symbology and payload)"),
            stored("/v1/photos", "photos", "Photo", "Photos analysed through /v1/detect"),
            stored("/v1/face-tracks", "faceTracks", "FaceTrack", "Faces followed in live sessions: when each ID appeared and was lost"),
            (
                "/healthz",
                ["get": ["summary": "Liveness and load", "responses": ["200": json("the server's load", OpenAPISchemas.ref("Health"))]]]
            ),
            (
                "/openapi.json",
                [
                    "get": [
                        "summary": "This document",
                        "responses": ["200": ["description": "OpenAPI 3.1", "content": ["application/json": [:]]]],
                    ]
                ]
            ),
            (
                "/login",
                [
                    "get": [
                        "summary": "Browser login: sets the token cookie and redirects to the page", "security": [[:]],
                        "parameters": [parameter("token", in: "query", OpenAPISchemas.string, "the server's token", required: true)],
                        "responses": ["303": ["description": "to /"], "401": unauthorized],
                    ]
                ]
            ),
        ]
            + WebPage.assets.map { asset in
                (
                    asset.path,
                    [
                        "get": [
                            "summary": .string(asset.summary),
                            "responses": ["200": ["description": "the file", "content": [asset.mediaType: [:]]]],
                        ]
                    ]
                )
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
