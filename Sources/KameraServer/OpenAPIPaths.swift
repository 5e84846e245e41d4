import Kamera
import KameraReports

/// Every route of the server in `/openapi.json`, with its parameters and responses.
extension OpenAPIDocument {
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
                "/v1/redact",
                [
                    "post": [
                        "summary": "Cover the faces (and codes, text, people) in one image; the image comes back in its format",
                        "parameters": .array(redactParameters),
                        "requestBody": [
                            "required": true,
                            "content": ["image/jpeg": [:], "image/png": [:], "image/webp": [:], "application/octet-stream": [:]],
                        ],
                        "responses": [
                            "200": [
                                "description": "the covered image, no metadata; header Kamera-Redacted lists what was covered",
                                "content": ["image/jpeg": [:], "image/png": [:], "image/webp": [:]],
                            ],
                            "400": failure("the body or query is not valid"), "401": unauthorized, "403": forbidden,
                            "408": failure("the body did not arrive in time"), "413": failure("the body or the decoded image is too large"),
                            "415": failure("not an image format Kamera decodes"), "503": busy,
                            "504": failure("the redaction took longer than the request timeout"),
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
            (
                "/v1/cameras/{index}/controls",
                [
                    "get": [
                        "summary": "A V4L2 server camera's controls, with what it supports in AVCaptureDevice's terms",
                        "parameters": [pathIndex],
                        "responses": [
                            "200": json("the controls", OpenAPISchemas.ref("CameraControls")), "403": forbidden,
                            "404": failure("no such camera"), "409": failure("the camera has no controls (noCameraControls)"),
                        ],
                    ],
                    "put": [
                        "summary": "Change a V4L2 server camera's settings (focus, exposure, white balance, zoom, torch, …)",
                        "parameters": [pathIndex],
                        "requestBody": [
                            "required": true, "content": ["application/json": ["schema": OpenAPISchemas.ref("CameraSettings")]],
                        ],
                        "responses": [
                            "200": json("the controls after the change", OpenAPISchemas.ref("CameraControls")),
                            "400": failure("the settings are not valid"), "403": forbidden, "404": failure("no such camera"),
                            "409": failure("no controls, or the device is held by another application"),
                            "422": failure("the camera does not support a setting (unsupportedCameraControl)"),
                        ],
                    ],
                ]
            ),
            (
                "/v1/cameras/{index}/photo",
                [
                    "post": [
                        "summary":
                            "Take a photo with a server camera: its next frame at full size, JPEG with EXIF, saved and listed by /v1/stills",
                        "parameters": [pathIndex],
                        "responses": [
                            "201": json("the saved photo", single("still", "Still")), "403": forbidden, "404": failure("no such camera"),
                            "503": failure("the camera cannot be opened, or the server is stopping"),
                            "504": failure("the camera delivered no frame (cameraNotResponding)"),
                            "507": failure("the disk is full or below its free-space minimum"),
                        ],
                    ]
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
            stored("/v1/stills", "stills", "Still", "Photos taken with server cameras (POST /v1/cameras/{index}/photo)"),
            (
                "/v1/stills/{id}",
                [
                    "delete": [
                        "summary": "Delete a photo and its files", "parameters": [pathID],
                        "responses": ["204": ["description": "deleted"], "403": forbidden, "404": failure("no such photo")],
                    ]
                ]
            ),
            (
                "/v1/stills/{id}/image",
                [
                    "get": [
                        "summary": "The photo: JPEG at the camera's full size with EXIF orientation and time taken",
                        "parameters": [
                            pathID,
                            parameter(
                                "download", in: "query", OpenAPISchemas.string,
                                "present: sent as an attachment named kamera-DATE.jpg (Content-Disposition)"),
                        ],
                        "responses": ["200": ["description": "JPEG", "content": ["image/jpeg": [:]]], "404": failure("no such photo")],
                    ]
                ]
            ),
            (
                "/v1/stills/{id}/thumbnail",
                [
                    "get": [
                        "summary": "The photo at most 320 pixels on its longer side", "parameters": [pathID],
                        "responses": ["200": ["description": "JPEG", "content": ["image/jpeg": [:]]], "404": failure("no such photo")],
                    ]
                ]
            ),
            stored("/v1/codes", "codes", "Code", "Codes first seen in live sessions (one per session, symbology and payload)"),
            stored("/v1/photos", "photos", "Photo", "Photos analysed through /v1/detect"),
            stored("/v1/face-tracks", "faceTracks", "FaceTrack", "Faces followed in live sessions: when each ID appeared and was lost"),
            (
                "/healthz",
                [
                    "get": [
                        "summary": "Liveness and load (no token needed)", "security": [[:]],
                        "responses": ["200": json("the server's load", OpenAPISchemas.ref("Health"))],
                    ]
                ]
            ),
            (
                "/readyz",
                [
                    "get": [
                        "summary":
                            "Readiness for traffic: models loaded, library readable, disk above the minimum, not draining (no token needed)",
                        "security": [[:]],
                        "responses": [
                            "200": json("ready", OpenAPISchemas.ref("Readiness")),
                            "503": json("not ready, with the reasons", OpenAPISchemas.ref("Readiness")),
                        ],
                    ]
                ]
            ),
            (
                "/metrics",
                [
                    "get": [
                        "summary":
                            "Prometheus metrics (text format 0.0.4): requests, latency, 503s, analysis queue, live sessions, recordings, model loads",
                        "responses": [
                            "200": ["description": "Prometheus text exposition", "content": ["text/plain": [:]]], "401": unauthorized,
                        ],
                    ]
                ]
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
}
