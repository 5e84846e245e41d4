import Kamera
import KameraReports

/// The JSON Schemas of what the server sends and takes, for `/openapi.json`. Enumerations come
/// from the types themselves (error codes, stop reasons, symbologies, analysis options), and
/// every object is closed (`additionalProperties: false`), so `OpenAPIConformanceTests` catches
/// a record field the document does not describe.
enum OpenAPISchemas {
    static func ref(_ name: String) -> JSONValue { ["$ref": .string("#/components/schemas/\(name)")] }

    static func object(_ properties: [(String, JSONValue)], required: [String]) -> JSONValue {
        [
            "type": "object", "properties": .object(properties), "required": .array(required.map { .string($0) }),
            "additionalProperties": false,
        ]
    }

    static func array(_ items: JSONValue) -> JSONValue { ["type": "array", "items": items] }
    static func nullable(_ type: String) -> JSONValue { ["type": [.string(type), "null"]] }
    static func enumeration(_ values: [String]) -> JSONValue { ["type": "string", "enum": .array(values.map { .string($0) })] }

    static let number: JSONValue = ["type": "number"]
    static let integer: JSONValue = ["type": "integer"]
    static let string: JSONValue = ["type": "string"]
    static let boolean: JSONValue = ["type": "boolean"]
    /// Four corners in pixels, top-left origin: topLeft, topRight, bottomRight, bottomLeft.
    static let corners: JSONValue = [
        "type": "array", "items": ["type": "array", "items": number, "minItems": 2, "maxItems": 2], "minItems": 4, "maxItems": 4,
    ]
    static let points: JSONValue = array(["type": "array", "items": number, "minItems": 2, "maxItems": 2])

    static var all: [(String, JSONValue)] {
        [
            ("Error", error), ("Box", box), ("Barcode", barcode), ("Face", face), ("TextLine", textLine), ("Rectangle", rectangle),
            ("DetectResults", detectResults), ("AnalysisOptions", analysisOptions), ("Recording", recording), ("Code", code),
            ("Photo", photo), ("FaceTrack", faceTrack), ("Still", still), ("Camera", camera), ("Health", health), ("Readiness", readiness),
            ("GenerateOrder", generateOrder), ("CameraControls", cameraControls), ("CameraSettings", cameraSettings),
            ("PersonMask", personMask), ("BodyPose", bodyPose), ("BodyPose3D", bodyPose3D), ("HandPose", handPose),
        ]
    }

    static var error: JSONValue {
        object(
            [
                (
                    "error",
                    object(
                        [
                            ("code", enumeration(KameraError.Code.serverCodes.map(\.rawValue))), ("message", string), ("hint", string),
                        ], required: ["code", "message", "hint"])
                )
            ], required: ["error"])
    }

    static var box: JSONValue {
        object([("x", number), ("y", number), ("width", number), ("height", number)], required: ["x", "y", "width", "height"])
    }

    static var barcode: JSONValue {
        object(
            [
                ("symbology", enumeration(BarcodeSymbology.allCases.map(\.rawValue))), ("payload", nullable("string")),
                ("payloadBase64", string), ("supplementalPayload", nullable("string")), ("boundingBox", ref("Box")),
                ("pixelCorners", corners), ("pixelBox", ref("Box")), ("confidence", number), ("orientation", integer),
                ("mirrored", boolean), ("inverted", boolean), ("symbologyIdentifier", string),
                ("errorCorrectionLevel", nullable("string")),
            ],
            required: [
                "symbology", "payload", "payloadBase64", "supplementalPayload", "boundingBox", "pixelCorners", "pixelBox", "confidence",
                "orientation", "mirrored", "inverted", "symbologyIdentifier", "errorCorrectionLevel",
            ])
    }

    static var face: JSONValue {
        let regions = [
            "faceContour", "leftEye", "rightEye", "leftEyebrow", "rightEyebrow", "nose", "noseCrest", "medianLine", "outerLips",
            "innerLips", "leftPupil", "rightPupil",
        ]
        return object(
            [
                ("boundingBox", ref("Box")), ("pixelBox", ref("Box")), ("confidence", number), ("roll", number), ("yaw", number),
                ("pitch", number), ("landmarks", object(regions.map { ($0, points) }, required: regions)),
            ], required: ["boundingBox", "pixelBox", "confidence", "roll", "yaw", "pitch"])
    }

    static var textLine: JSONValue {
        let character = object(
            [("character", string), ("boundingBox", ref("Box")), ("pixelBox", ref("Box"))],
            required: ["character", "boundingBox", "pixelBox"])
        let word = object(
            [
                ("string", string), ("confidence", number), ("boundingBox", ref("Box")), ("pixelBox", ref("Box")),
                ("characterBoxes", array(character)),
            ], required: ["string", "confidence", "boundingBox", "pixelBox"])
        return object(
            [
                ("boundingBox", ref("Box")), ("pixelBox", ref("Box")), ("string", string), ("confidence", number),
                ("characterBoxes", array(character)), ("words", array(word)),
            ], required: ["boundingBox", "pixelBox", "string", "confidence", "words"])
    }

    static var rectangle: JSONValue {
        object(
            [("pixelCorners", corners), ("boundingBox", ref("Box")), ("pixelBox", ref("Box")), ("confidence", number)],
            required: ["pixelCorners", "boundingBox", "pixelBox", "confidence"])
    }

    static var detectResults: JSONValue {
        let result = object(
            [
                ("input", string), ("width", integer), ("height", integer), ("barcodes", array(ref("Barcode"))),
                ("faces", array(ref("Face"))), ("text", array(ref("TextLine"))), ("rectangles", array(ref("Rectangle"))),
                ("personMask", ref("PersonMask")), ("bodies", array(ref("BodyPose"))),
                ("bodies3D", array(ref("BodyPose3D"))), ("hands", array(ref("HandPose"))),
                ("annotated", string), ("warning", string),
                ("error", error),
            ], required: ["input"])
        return object([("results", array(result))], required: ["results"])
    }

    /// The live sockets' options message, `POST /v1/detect`'s query: `AnalysisOptions`' keys.
    static var analysisOptions: JSONValue {
        object(
            AnalysisOptions.CodingKeys.allCases.map { key in
                var schema = key.schema
                if case .object(var members) = schema {
                    members.append(("description", .string(key.help)))
                    schema = .object(members)
                }
                return (key.rawValue, schema)
            }, required: [])
    }

    /// `personMask`: the mask's size, the share showing people, and their bounds in image pixels.
    static var personMask: JSONValue {
        object(
            [
                ("quality", enumeration(GeneratePersonSegmentationRequest.QualityLevel.allCases.map(\.rawValue))),
                ("width", integer), ("height", integer), ("coverage", number),
                ("pixelBox", ["oneOf": [ref("Box"), ["type": "null"]]]),
            ], required: ["quality", "width", "height", "coverage", "pixelBox"])
    }

    /// One person's body pose: Vision's joints in pixels with their confidences.
    static var bodyPose: JSONValue {
        let joint = object(
            [
                ("name", enumeration(HumanBodyPoseObservation.JointName.allCases.map(\.rawValue))), ("x", number), ("y", number),
                ("confidence", number),
            ], required: ["name", "x", "y", "confidence"])
        return object(
            [("confidence", number), ("boundingBox", ref("Box")), ("pixelBox", ref("Box")), ("joints", array(joint))],
            required: ["confidence", "boundingBox", "pixelBox", "joints"])
    }

    /// One person's body pose in metres: the height and Vision's 3-D joints, each also in pixels.
    static var bodyPose3D: JSONValue {
        let joint = object(
            [
                ("name", enumeration(HumanBodyPose3DObservation.JointName.allCases.map(\.rawValue))), ("x", number), ("y", number),
                ("z", number), ("imageX", number), ("imageY", number),
            ], required: ["name", "x", "y", "z", "imageX", "imageY"])
        return object(
            [
                ("confidence", number), ("bodyHeight", number),
                ("heightEstimation", enumeration(["reference", "measured"])), ("joints", array(joint)),
            ], required: ["confidence", "bodyHeight", "heightEstimation", "joints"])
    }

    /// One hand: which, how sure, and its 21 joints in pixels.
    static var handPose: JSONValue {
        let joint = object(
            [("name", enumeration(HumanHandPoseObservation.JointName.allCases.map(\.rawValue))), ("x", number), ("y", number)],
            required: ["name", "x", "y"])
        return object(
            [("chirality", enumeration(["left", "right", "unknown"])), ("confidence", number), ("joints", array(joint))],
            required: ["chirality", "confidence", "joints"])
    }

    static var recording: JSONValue {
        object(
            [
                ("id", string), ("startedAt", string), ("width", integer), ("height", integer), ("duration", number), ("frames", integer),
                ("bytes", integer), ("stopReason", enumeration(RecordingEndReason.allCases.map(\.rawValue))), ("complete", boolean),
                ("hasThumbnail", boolean), ("source", string), ("movie", string), ("thumbnail", string),
                ("event", enumeration(CameraEvent.allCases.map(\.rawValue))),
                ("eventOffset", ["type": "number", "description": "seconds from the clip's start to the frame the event was seen on"]),
            ], required: ["id", "startedAt", "width", "height", "duration", "frames", "bytes", "complete", "hasThumbnail", "movie"])
    }

    static var code: JSONValue {
        object(
            [
                ("session", string), ("symbology", string), ("payload", string), ("payloadBase64", string), ("firstSeen", string),
            ], required: ["session", "symbology", "payloadBase64", "firstSeen"])
    }

    static var photo: JSONValue {
        object(
            [
                ("name", string), ("analysedAt", string), ("width", integer), ("height", integer), ("barcodes", integer),
                ("faces", integer),
                ("textLines", integer),
            ], required: ["name", "analysedAt", "width", "height", "barcodes", "faces", "textLines"])
    }

    static var faceTrack: JSONValue {
        object(
            [("session", string), ("faceID", integer), ("appearedAt", string), ("lostAt", nullable("string"))],
            required: ["session", "faceID", "appearedAt", "lostAt"])
    }

    static var still: JSONValue {
        object(
            [
                ("id", string), ("takenAt", string), ("width", integer), ("height", integer), ("bytes", integer), ("source", string),
                ("facesCovered", boolean), ("image", string), ("thumbnail", string),
            ], required: ["id", "takenAt", "width", "height", "bytes", "source", "facesCovered", "image", "thumbnail"])
    }

    static var camera: JSONValue {
        object(
            [
                ("index", integer), ("path", string), ("name", string), ("live", string), ("capturing", boolean), ("watching", integer),
                ("width", integer), ("height", integer),
                ("recording", object([("id", string), ("seconds", number)], required: ["id", "seconds"])),
                (
                    "clips",
                    object(
                        [
                            ("events", array(enumeration(CameraEvent.allCases.map(\.rawValue)))), ("preRoll", number), ("postRoll", number),
                            ("maximumSeconds", number), ("writing", boolean),
                        ], required: ["events", "preRoll", "postRoll", "maximumSeconds", "writing"])
                ),
                ("hasControls", boolean),
            ], required: ["index", "path", "name", "live", "capturing", "watching", "hasControls"])
    }

    static var health: JSONValue {
        object(
            [
                ("status", enumeration(["ok"])), ("analysisSlots", integer), ("analysesRunning", integer), ("connections", integer),
                ("memoryBudgetBytes", integer), ("memoryInUseBytes", integer),
            ], required: ["status", "analysisSlots", "analysesRunning", "connections", "memoryBudgetBytes", "memoryInUseBytes"])
    }

    static var readiness: JSONValue {
        object(
            [
                ("ready", boolean), ("modelsLoaded", boolean), ("libraryOpen", boolean), ("freeDiskBytes", integer),
                ("minimumFreeDiskBytes", integer), ("draining", boolean), ("problems", ["type": "array", "items": string]),
            ], required: ["ready", "modelsLoaded", "libraryOpen", "minimumFreeDiskBytes", "draining", "problems"])
    }

    static var generateOrder: JSONValue {
        object(
            [
                ("symbology", enumeration(BarcodeSymbology.allCases.map(\.rawValue))),
                ("payload", ["type": "string", "description": "UTF-8 text, or hexadecimal bytes when hex is true"]), ("hex", boolean),
                ("moduleSize", ["type": "integer", "minimum": 1, "maximum": 100]), ("ecc", enumeration(["L", "M", "Q", "H"])),
                ("quietZone", ["type": "integer", "minimum": 0, "maximum": 100]),
                ("barHeight", ["type": "integer", "minimum": 1, "maximum": 1000]),
            ], required: ["symbology", "payload"])
    }

    static var cameraControls: JSONValue {
        let control = object(
            [
                ("id", integer), ("name", string),
                ("kind", enumeration(["integer", "boolean", "menu", "button", "integer64", "string", "bitmask", "integerMenu", "other"])),
                ("minimum", integer), ("maximum", integer), ("step", integer), ("defaultValue", integer), ("value", integer),
                ("menu", array(object([("index", integer), ("name", string)], required: ["index", "name"]))),
                ("isReadOnly", boolean), ("isInactive", boolean),
            ],
            required: [
                "id", "name", "kind", "minimum", "maximum", "step", "defaultValue", "value", "menu", "isReadOnly", "isInactive",
            ])
        let supports = object(
            [
                ("focusModes", array(enumeration(CaptureDevice.FocusMode.allCases.map(\.rawValue)))),
                ("autoFocusRangeRestriction", boolean), ("smoothAutoFocus", boolean), ("lensPosition", boolean),
                ("exposureModes", array(enumeration(CaptureDevice.ExposureMode.allCases.map(\.rawValue)))),
                ("whiteBalanceModes", array(enumeration(CaptureDevice.WhiteBalanceMode.allCases.map(\.rawValue)))),
                ("torch", boolean), ("powerLineFrequency", boolean), ("maxZoomFactor", number),
            ],
            required: [
                "focusModes", "autoFocusRangeRestriction", "smoothAutoFocus", "lensPosition", "exposureModes", "whiteBalanceModes",
                "torch", "powerLineFrequency", "maxZoomFactor",
            ])
        return object(
            [("device", string), ("controls", array(control)), ("supports", supports), ("locked", boolean)],
            required: ["device", "controls", "supports", "locked"])
    }

    static var cameraSettings: JSONValue {
        object(
            [
                ("focusMode", enumeration(CaptureDevice.FocusMode.allCases.map(\.rawValue))),
                ("lensPosition", ["type": "number", "minimum": 0, "maximum": 1]),
                ("autoFocusRangeRestriction", enumeration(CaptureDevice.AutoFocusRangeRestriction.allCases.map(\.rawValue))),
                ("isSmoothAutoFocusEnabled", boolean),
                ("exposureMode", enumeration(CaptureDevice.ExposureMode.allCases.map(\.rawValue))),
                ("exposureDuration", ["type": "number", "exclusiveMinimum": 0, "description": "seconds"]), ("iso", number),
                ("gain", ["type": "number", "minimum": 0, "maximum": 1]), ("exposureTargetBias", ["type": "number", "description": "EV"]),
                ("whiteBalanceMode", enumeration(CaptureDevice.WhiteBalanceMode.allCases.map(\.rawValue))),
                ("whiteBalanceTemperature", ["type": "number", "description": "kelvin"]),
                ("videoZoomFactor", ["type": "number", "minimum": 1]),
                ("torchMode", enumeration(CaptureDevice.TorchMode.allCases.map(\.rawValue))),
                ("powerLineFrequency", enumeration(CaptureDevice.PowerLineFrequency.allCases.map(\.rawValue))),
            ], required: [])
    }
}
