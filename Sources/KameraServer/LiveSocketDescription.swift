import Kamera
import KameraReports

/// The live sockets in `/openapi.json`: what each side sends, with the options message's
/// schema (`AnalysisOptions`) and the recording command's.
enum LiveSocketDescription {
    static let messages = """
        Text messages to the server: analysis options (the AnalysisOptions schema, e.g. {"faces":true,"landmarks":false,\
        "barcodes":true,"text":false}; missing keys take their defaults, unknown keys are an error; when no detector is named, \
        faces and barcodes) or {"record":"start","maxSeconds":N,"maxMegabytes":N} / {"record":"stop"}; at most 64 KiB. \
        The server answers each analysed frame with one JSON text message: id, width, height, analysisMs, dropped, recording \
        (seconds, while recording), then kamera scan's record (t, frame, faces with faceID, barcodes with key and state, \
        rectangles, bodies with bodyID and hands with handID when asked for, personMask's figures with a mask or background, \
        events, and text with textTime when text is asked for: text is found at its own pace, on an earlier frame). \
        Other messages: {"id":N,"skipped":true,"dropped":total} for a frame replaced by a newer one, {"id":N,"error":{…}} \
        (the Error schema's error) and {"recording":{…}} (the Recording schema) when a recording ends.
        """

    static var browser: JSONValue {
        [
            "summary": "WebSocket: live analysis of the page's camera frames",
            "description": .string(
                "Upgrade to a WebSocket. Send binary messages of a 4-byte little-endian frame number followed by a JPEG, WebP or "
                    + "PNG frame. Frames are analysed one at a time per connection; while one is analysed only the newest is kept. "
                    + "With a background option the server sends each analysed frame back changed, as a binary message (the frame "
                    + "number, then JPEG) just before its text message, and records the changed frames. " + messages),
            "responses": responses,
        ]
    }

    static var camera: JSONValue {
        [
            "summary": "WebSocket: the live view of a server camera",
            "description": .string(
                "Upgrade to a WebSocket. For each analysed frame the server sends a binary message (a 4-byte little-endian frame "
                    + "number, then the frame as JPEG) followed by its text message. Options are shared by everyone watching the "
                    + "camera; a recording records every frame at the camera's full size and rate (with a background option: the "
                    + "analysed frames, changed, at the analysis rate). If the camera cannot be opened or "
                    + "stops delivering, watchers get {\"error\":{…}} and the socket closes. " + messages),
            "parameters": [OpenAPIDocument.pathIndex],
            "responses": responses,
        ]
    }

    private static var responses: JSONValue {
        [
            "101": ["description": "switching to the WebSocket protocol"],
            "401": OpenAPIDocument.unauthorized, "403": OpenAPIDocument.forbidden,
            "404": OpenAPIDocument.failure("no such socket or camera"),
        ]
    }
}
