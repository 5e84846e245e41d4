/// The OpenAPI 3.1 description of the server's routes, served at `/openapi.json`; a test
/// checks that it lists exactly the routes the router has.
enum OpenAPIDocument {
    static let json = #"""
        {
          "openapi": "3.1.0",
          "info": {
            "title": "Kamera server",
            "version": "1",
            "description": "Barcodes, faces, text and rectangles in images (the same JSON as `kamera detect`), barcode generation, and live analysis of camera frames over a WebSocket. When the server was started with --token, every request needs `Authorization: Bearer TOKEN` or the cookie set by /login."
          },
          "components": {
            "securitySchemes": {
              "bearer": {"type": "http", "scheme": "bearer"},
              "cookie": {"type": "apiKey", "in": "cookie", "name": "kamera_token"}
            },
            "schemas": {
              "Error": {
                "type": "object",
                "required": ["error"],
                "properties": {
                  "error": {
                    "type": "object",
                    "required": ["code", "message", "hint"],
                    "properties": {
                      "code": {"type": "string", "description": "stable name to branch on, e.g. corruptImage, imageTooLarge, busy, timeout"},
                      "message": {"type": "string"},
                      "hint": {"type": "string"}
                    }
                  }
                }
              },
              "DetectResults": {
                "type": "object",
                "required": ["results"],
                "properties": {
                  "results": {
                    "type": "array",
                    "items": {
                      "type": "object",
                      "required": ["input"],
                      "properties": {
                        "input": {"type": "string"},
                        "width": {"type": "integer"},
                        "height": {"type": "integer"},
                        "barcodes": {"type": "array", "items": {"type": "object"}},
                        "faces": {"type": "array", "items": {"type": "object"}},
                        "text": {"type": "array", "items": {"type": "object"}},
                        "rectangles": {"type": "array", "items": {"type": "object"}},
                        "warning": {"type": "string"}
                      }
                    }
                  }
                }
              },
              "GenerateOrder": {
                "type": "object",
                "required": ["symbology", "payload"],
                "properties": {
                  "symbology": {"type": "string", "examples": ["qr", "aztec", "datamatrix", "pdf417", "ean13", "code128"]},
                  "payload": {"type": "string", "description": "UTF-8 text, or hexadecimal bytes when hex is true"},
                  "hex": {"type": "boolean"},
                  "moduleSize": {"type": "integer", "minimum": 1, "maximum": 100},
                  "ecc": {"type": "string", "enum": ["L", "M", "Q", "H"]},
                  "quietZone": {"type": "integer", "minimum": 0, "maximum": 100},
                  "barHeight": {"type": "integer", "minimum": 1, "maximum": 1000}
                }
              }
            },
            "responses": {
              "BadRequest": {"description": "the body or query is not valid", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}},
              "Unauthorized": {"description": "the token is missing or wrong", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}},
              "Busy": {"description": "every analysis slot is taken; retry after Retry-After seconds", "headers": {"Retry-After": {"schema": {"type": "integer"}}}, "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}
            }
          },
          "security": [{"bearer": []}, {"cookie": []}, {}],
          "paths": {
            "/v1/detect": {
              "post": {
                "summary": "Analyse one image (JPEG, PNG or WebP)",
                "parameters": [
                  {"name": "barcodes", "in": "query", "allowEmptyValue": true, "schema": {"type": "string"}, "description": "read codes (the default when no detector is named)"},
                  {"name": "faces", "in": "query", "allowEmptyValue": true, "schema": {"type": "string"}},
                  {"name": "landmarks", "in": "query", "allowEmptyValue": true, "schema": {"type": "string"}},
                  {"name": "text", "in": "query", "allowEmptyValue": true, "schema": {"type": "string"}},
                  {"name": "recognize", "in": "query", "allowEmptyValue": true, "schema": {"type": "string"}},
                  {"name": "rectangles", "in": "query", "allowEmptyValue": true, "schema": {"type": "string"}},
                  {"name": "effort", "in": "query", "schema": {"type": "string", "enum": ["fast", "balanced", "thorough"]}},
                  {"name": "languages", "in": "query", "schema": {"type": "string"}, "description": "comma-separated Tesseract or BCP 47 codes"},
                  {"name": "name", "in": "query", "schema": {"type": "string"}, "description": "reported as the result's input"}
                ],
                "requestBody": {"required": true, "content": {"image/jpeg": {}, "image/png": {}, "image/webp": {}, "application/octet-stream": {}}},
                "responses": {
                  "200": {"description": "the results, as kamera detect prints them", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/DetectResults"}}}},
                  "400": {"$ref": "#/components/responses/BadRequest"},
                  "401": {"$ref": "#/components/responses/Unauthorized"},
                  "413": {"description": "the body or the decoded image is too large", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}},
                  "415": {"description": "not an image format Kamera decodes", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}},
                  "503": {"$ref": "#/components/responses/Busy"},
                  "504": {"description": "the analysis took longer than the request timeout", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}
                }
              }
            },
            "/v1/generate": {
              "post": {
                "summary": "Draw a barcode as a PNG",
                "requestBody": {"required": true, "content": {"application/json": {"schema": {"$ref": "#/components/schemas/GenerateOrder"}}}},
                "responses": {
                  "200": {"description": "the symbol", "content": {"image/png": {}}},
                  "400": {"$ref": "#/components/responses/BadRequest"},
                  "401": {"$ref": "#/components/responses/Unauthorized"},
                  "503": {"$ref": "#/components/responses/Busy"}
                }
              }
            },
            "/v1/live": {
              "get": {
                "summary": "WebSocket: live analysis of camera frames",
                "description": "Upgrade to a WebSocket. Send binary messages of a 4-byte little-endian frame number followed by a JPEG, WebP or PNG frame, and text messages {\"faces\":bool,\"landmarks\":bool,\"codes\":bool,\"text\":bool} to choose detectors or {\"record\":\"start\",\"maxSeconds\":N,\"maxMegabytes\":N} / {\"record\":\"stop\"} to record the analysed frames (a recording that ends is announced as {\"recording\":{…}}). Each analysed frame is answered with one JSON text message: id, width, height, analysisMs, dropped, then kamera scan's record (t, frame, faces with faceID, barcodes with key and state, events) and text when asked. Frames are analysed one at a time per connection; while one is analysed only the newest is kept, and a frame that will not be analysed (replaced by a newer one) is answered with {\"id\":N,\"skipped\":true,\"dropped\":total}.",
                "responses": {
                  "101": {"description": "switching to the WebSocket protocol"},
                  "401": {"$ref": "#/components/responses/Unauthorized"}
                }
              }
            },
            "/v1/cameras": {
              "get": {
                "summary": "The server's cameras (kamera serve --camera)",
                "responses": {"200": {"description": "{\"cameras\":[{index, path, name, live, capturing, watching, width, height, recording: {id, seconds}}]}", "content": {"application/json": {}}}, "401": {"$ref": "#/components/responses/Unauthorized"}}
              }
            },
            "/v1/cameras/{index}/recording": {
              "post": {
                "summary": "Start recording every frame of a server camera at its full size and rate",
                "parameters": [{"name": "index", "in": "path", "required": true, "schema": {"type": "integer"}}, {"name": "maxSeconds", "in": "query", "schema": {"type": "number"}}, {"name": "maxMegabytes", "in": "query", "schema": {"type": "number"}}],
                "responses": {"201": {"description": "{\"recording\":{…}} listed as being written", "content": {"application/json": {}}}, "400": {"$ref": "#/components/responses/BadRequest"}, "404": {"description": "no such camera", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}, "409": {"description": "already recording", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}}
              },
              "delete": {
                "summary": "Stop the camera's recording and return its finished entry",
                "parameters": [{"name": "index", "in": "path", "required": true, "schema": {"type": "integer"}}],
                "responses": {"200": {"description": "{\"recording\":{…}}", "content": {"application/json": {}}}, "400": {"description": "nothing was recorded", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}, "404": {"description": "no such camera", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}, "409": {"description": "not recording", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}, "504": {"description": "the camera delivered no frame to end the recording on", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}}
              }
            },
            "/v1/cameras/{index}/live": {
              "get": {
                "summary": "WebSocket: the live view of a server camera",
                "description": "Upgrade to a WebSocket. For each analysed frame the server sends a binary message (a 4-byte little-endian frame number, then the frame as JPEG) followed by a text message with the same id and the fields /v1/live sends. Send text messages only: detector options (shared by everyone watching the camera) and {\"record\":\"start\",\"maxSeconds\":N,\"maxMegabytes\":N} / {\"record\":\"stop\"}, which record every frame of the camera at its full size and rate; a recording that ends is announced to every watcher as {\"recording\":{…}}. If the camera cannot be opened or stops delivering, watchers get {\"error\":{…}} and the socket closes.",
                "parameters": [{"name": "index", "in": "path", "required": true, "schema": {"type": "integer"}}],
                "responses": {"101": {"description": "switching to the WebSocket protocol"}, "401": {"$ref": "#/components/responses/Unauthorized"}, "404": {"description": "no such camera", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}}
              }
            },
            "/v1/recordings": {
              "get": {
                "summary": "Recordings made from live sessions, newest first",
                "responses": {"200": {"description": "{\"recordings\":[{id, startedAt, width, height, duration, frames, bytes, stopReason, complete, movie, thumbnail, source}]}", "content": {"application/json": {}}}, "401": {"$ref": "#/components/responses/Unauthorized"}}
              }
            },
            "/v1/recordings/{id}": {
              "delete": {
                "summary": "Delete a recording and its files",
                "parameters": [{"name": "id", "in": "path", "required": true, "schema": {"type": "string"}}],
                "responses": {"204": {"description": "deleted"}, "404": {"description": "no such recording", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}}
              }
            },
            "/v1/recordings/{id}/movie": {
              "get": {
                "summary": "The recording's fragmented MP4 (byte ranges supported)",
                "parameters": [{"name": "id", "in": "path", "required": true, "schema": {"type": "string"}}, {"name": "Range", "in": "header", "schema": {"type": "string"}}],
                "responses": {"200": {"description": "the movie", "content": {"video/mp4": {}}}, "206": {"description": "the requested range", "content": {"video/mp4": {}}}, "404": {"description": "no such recording", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}}
              }
            },
            "/v1/recordings/{id}/thumbnail": {
              "get": {
                "summary": "The recording's thumbnail (at most 100 pixels wide, rotation applied)",
                "parameters": [{"name": "id", "in": "path", "required": true, "schema": {"type": "string"}}],
                "responses": {"200": {"description": "PNG", "content": {"image/png": {}}}, "404": {"description": "no such recording or no thumbnail", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}}
              }
            },
            "/v1/codes": {
              "get": {
                "summary": "Codes first seen in live sessions, newest first (one per session, symbology and payload)",
                "parameters": [{"name": "limit", "in": "query", "schema": {"type": "integer", "minimum": 1, "default": 1000}}],
                "responses": {"200": {"description": "{\"codes\":[{session, symbology, payload, payloadBase64, firstSeen}]}", "content": {"application/json": {}}}, "400": {"$ref": "#/components/responses/BadRequest"}}
              }
            },
            "/healthz": {
              "get": {
                "summary": "Liveness and load",
                "responses": {"200": {"description": "status, analysis slots and analyses running", "content": {"application/json": {}}}}
              }
            },
            "/openapi.json": {
              "get": {"summary": "This document", "responses": {"200": {"description": "OpenAPI 3.1", "content": {"application/json": {}}}}}
            },
            "/login": {
              "get": {
                "summary": "Browser login: sets the token cookie and redirects to the page",
                "security": [{}],
                "parameters": [{"name": "token", "in": "query", "required": true, "schema": {"type": "string"}}],
                "responses": {"303": {"description": "to /"}, "401": {"$ref": "#/components/responses/Unauthorized"}}
              }
            },
            "/": {"get": {"summary": "The web page", "responses": {"200": {"description": "HTML", "content": {"text/html": {}}}}}},
            "/app.js": {"get": {"summary": "The page's script", "responses": {"200": {"description": "JavaScript", "content": {"text/javascript": {}}}}}},
            "/style.css": {"get": {"summary": "The page's style sheet", "responses": {"200": {"description": "CSS", "content": {"text/css": {}}}}}},
            "/favicon.svg": {"get": {"summary": "The page's icon", "responses": {"200": {"description": "SVG", "content": {"image/svg+xml": {}}}}}}
          }
        }
        """#
}
