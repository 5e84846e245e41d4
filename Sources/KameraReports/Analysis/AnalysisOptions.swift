import Foundation
import Kamera

/// What to detect and how: the one description of an analysis that every surface reads —
/// `kamera detect` and `kamera scan` (flags), `POST /v1/detect` (query parameters), the live
/// sockets (a JSON text message) — and turns into requests with `imageAnalysis()` or
/// `liveConfiguration(frameBudget:)`.
///
/// Defaults live here only: a missing key takes its default, an unknown key is an error (a
/// typo must not silently return nothing), and `validate()` range-checks every number once,
/// before anything is converted or allocated.
package struct AnalysisOptions: Codable, Equatable, Sendable {
    /// Whether the options describe one still image or a stream of frames: it decides what
    /// runs when no detector is named and the defaults that trade accuracy for time.
    package enum Medium: Sendable {
        /// A photo: barcodes when nothing is named; balanced code effort; tiled faces.
        case image
        /// Video or camera frames: faces and barcodes when nothing is named; fast code
        /// effort; whole-frame faces without tiles.
        case stream
    }

    // Detectors: nil is "not named", which differs from false: when no detector is named
    // at all, the medium's default runs; `{"faces":false,"barcodes":false}` runs nothing.
    package var barcodes: Bool?
    package var symbologies: [BarcodeSymbology]?
    package var effort: DetectBarcodesRequest.Effort?
    package var maxCodes: Int?
    package var faces: Bool?
    package var landmarks: Bool?
    package var faceMode: FaceMode?
    package var minFaceSize: Double?
    package var minConfidence: Float?
    package var maxFaces: Int?
    package var text: Bool?
    package var recognize: Bool?
    package var languages = ["eng"]
    package var textEngine: RecognizeTextRequest.Engine?
    package var rectangles: Bool?
    package var maxRectangles: Int?
    package var regionOfInterest: NormalizedRect?
    package var personMask: GeneratePersonSegmentationRequest.QualityLevel?
    package var bodies: Bool?
    package var bodies3D: Bool?
    package var hands: Bool?
    // What a stream's background becomes (streams only; implies a person mask).
    package var background: BackgroundStyle?
    package var blurRadius: Double?
    package var backgroundColor: String?
    // How faces are covered in a stream's frames (streams only; implies faces).
    package var redact: RedactionStyle?

    package init() {}

    /// Whether any detector was named, true or false (a mask or a background counts: asking
    /// for a blurred background alone should not also read codes and faces).
    package var namesDetector: Bool {
        Self.detectorFlags.contains { self[keyPath: $0.1] != nil } || personMask != nil || background != nil
    }

    /// The detectors named by a flag alone, with their keys.
    /// (Computed: key paths are not `Sendable`.)
    static var detectorFlags: [(CodingKeys, WritableKeyPath<AnalysisOptions, Bool?>)] {
        [
            (.barcodes, \.barcodes), (.faces, \.faces), (.landmarks, \.landmarks), (.text, \.text), (.recognize, \.recognize),
            (.rectangles, \.rectangles), (.bodies, \.bodies), (.bodies3D, \.bodies3D), (.hands, \.hands),
        ]
    }
    /// Whether barcodes are read: when asked for, or when no detector is named (on both media).
    package var readsBarcodes: Bool { barcodes == true || !namesDetector }
    /// Whether faces are looked for in `medium`: when asked for (landmarks imply faces), or
    /// on a stream when no detector is named or faces are to be covered.
    package func detectsFaces(in medium: Medium) -> Bool {
        faces == true || landmarks == true || (medium == .stream && (!namesDetector || redact != nil))
    }
    /// Whether landmarks are asked for.
    package var detectsLandmarks: Bool { landmarks == true }
    /// Whether text is looked for (recognition implies finding it).
    package var detectsText: Bool { text == true || recognize == true }
    /// Whether text is recognized, not only found.
    package var recognizesText: Bool { recognize == true }
    /// Whether rectangles are looked for.
    package var detectsRectangles: Bool { rectangles == true }

    /// Refuses out-of-range numbers and inconsistent options, naming the option.
    /// - Throws: `KameraError.invalidArgument`.
    package func validate() throws {
        func check(_ ok: Bool, _ message: @autoclosure () -> String) throws {
            guard ok else { throw KameraError.invalidArgument(message()) }
        }
        if let minFaceSize {
            try check(
                minFaceSize.isFinite && minFaceSize > 0 && minFaceSize <= 100_000,
                "minFaceSize must be a positive number of pixels, at most 100000")
        }
        if let minConfidence {
            try check(minConfidence.isFinite && (0...1).contains(minConfidence), "minConfidence must be between 0 and 1")
        }
        if let maxFaces { try check((1...1000).contains(maxFaces), "maxFaces must be 1…1000") }
        if let maxCodes { try check((0...1000).contains(maxCodes), "maxCodes must be 0 (all) to 1000") }
        if let maxRectangles { try check((0...1000).contains(maxRectangles), "maxRectangles must be 0 (all) to 1000") }
        if let symbologies { try check(!symbologies.isEmpty, "symbologies is empty: name at least one, or all") }
        try check(!languages.isEmpty, "languages is empty: name at least one, such as eng")
        for language in languages {
            // Names become file names in the language data directory: no paths.
            try check(
                (1...32).contains(language.count)
                    && language.unicodeScalars.allSatisfy {
                        $0.isASCII && (CharacterSet.alphanumerics.contains($0) || "_-".unicodeScalars.contains($0))
                    },
                "language '\(language.prefix(40))' is not a Tesseract code or BCP 47 tag")
        }
        if let blurRadius {
            try check(blurRadius.isFinite && (1...200).contains(blurRadius), "blurRadius must be 1…200 pixels")
        }
        if let backgroundColor { _ = try BackgroundStyle.rgb(backgroundColor) }
        if let region = regionOfInterest {
            let values = [region.x, region.y, region.width, region.height]
            try check(
                values.allSatisfy(\.isFinite) && region.x >= 0 && region.y >= 0 && region.width > 0 && region.height > 0
                    && region.maxX <= 1 + 1e-9 && region.maxY <= 1 + 1e-9,
                "regionOfInterest must be x,y,width,height within 0…1 (normalized, lower-left origin)")
        }
    }

    /// The requests for one still image.
    /// - Throws: `KameraError.invalidArgument` when `validate()` does.
    package func imageAnalysis() throws -> ImageAnalysis {
        try validate()
        guard background == nil else {
            throw KameraError.invalidArgument("background is for streams (the live view, its recordings, kamera scan --annotate)")
        }
        guard redact == nil else {
            throw KameraError.invalidArgument(
                "redact is for streams (the live view and its recordings); photos: POST /v1/redact or kamera redact")
        }
        let region = regionOfInterest ?? .fullImage
        var codes = DetectBarcodesRequest(
            symbologies: symbologies ?? BarcodeSymbology.allCases, effort: effort ?? .balanced, maximumCount: maxCodes ?? 0)
        codes.regionOfInterest = region
        var rectangleRequest = DetectRectanglesRequest()
        if let maxRectangles { rectangleRequest.maximumObservations = maxRectangles }
        rectangleRequest.regionOfInterest = region
        let mode = faceMode ?? .tiled
        return ImageAnalysis(
            barcodes: readsBarcodes ? codes : nil,
            faces: detectsFaces(in: .image)
                ? ImageAnalysis.FaceAnalysis(
                    detection: faceRequest(mode.configured(DetectFaceRectanglesRequest())), landmarks: detectsLandmarks,
                    fastLandmarks: mode.fastLandmarks)
                : nil,
            text: detectsText
                ? ImageAnalysis.TextAnalysis(
                    recognize: recognizesText, languages: languages, regionOfInterest: region, engine: textEngine ?? .automatic) : nil,
            rectangles: detectsRectangles ? rectangleRequest : nil,
            personMask: personMask.map {
                var request = GeneratePersonSegmentationRequest(qualityLevel: $0)
                request.regionOfInterest = region
                return request
            },
            bodies: bodies == true
                ? {
                    var request = DetectHumanBodyPoseRequest()
                    request.regionOfInterest = region
                    return request
                }() : nil,
            bodies3D: bodies3D == true
                ? {
                    var request = DetectHumanBodyPose3DRequest(maximumPeople: 8)
                    request.regionOfInterest = region
                    return request
                }() : nil,
            hands: hands == true
                ? {
                    var request = DetectHumanHandPoseRequest(maximumHandCount: 8)
                    request.regionOfInterest = region
                    return request
                }() : nil)
    }

    /// The scanner's configuration for a stream.
    /// - Parameter frameBudget: seconds of detection work per frame to stay within (nil
    ///   detects faces on every frame).
    /// - Throws: `KameraError.invalidArgument` when `validate()` does, or when a region of
    ///   interest is set (tracks live in whole frames: crop the frames instead).
    package func liveConfiguration(frameBudget: Double?) throws -> LiveScanner.Configuration {
        try validate()
        guard regionOfInterest == nil else {
            throw KameraError.invalidArgument(
                "regionOfInterest is for single images: a stream is tracked in whole frames (crop the frames)")
        }
        guard bodies3D != true else {
            throw KameraError.invalidArgument("bodies3D is for photos; streams follow bodies in the image (bodies)")
        }
        // Whole frames, no tiles, unless a mode is named: tiling every frame of a video costs
        // 7× the frame rate (9 fps instead of 68 on Megamind.avi).
        let detection = faceRequest(
            faceMode.map { $0.configured(DetectFaceRectanglesRequest()) } ?? DetectFaceRectanglesRequest(scansTiles: false))
        var rectangleRequest = DetectRectanglesRequest()
        // Down to a tenth of the frame: a card or page held up to a camera is often smaller
        // than Vision's default fifth.
        rectangleRequest.minimumSize = 0.1
        if let maxRectangles { rectangleRequest.maximumObservations = maxRectangles }
        let faces = detectsFaces(in: .stream)
        return LiveScanner.Configuration(
            faceDetection: faces ? detection : nil,
            faceLandmarks: faces && detectsLandmarks
                ? DetectFaceLandmarksRequest(
                    faceDetection: detection, usesIrisModel: !(faceMode?.fastLandmarks ?? false),
                    refinesMesh: !(faceMode?.fastLandmarks ?? false)) : nil,
            barcodes: readsBarcodes
                ? DetectBarcodesRequest(
                    symbologies: symbologies ?? BarcodeSymbology.allCases, effort: effort ?? .fast, maximumCount: maxCodes ?? 0) : nil,
            frameBudget: frameBudget,
            rectangles: detectsRectangles ? rectangleRequest : nil,
            text: detectsText
                ? {
                    var request = DetectTextRectanglesRequest(languages: languages)
                    request.engine = textEngine ?? .automatic
                    return request
                }() : nil,
            bodies: bodies == true ? DetectHumanBodyPoseRequest(maximumPeople: 4) : nil,
            hands: hands == true ? DetectHumanHandPoseRequest(maximumHandCount: 4) : nil,
            personSegmentation: segmentsStream
                ? GeneratePersonSegmentationRequest(qualityLevel: personMask ?? .fast, maskSize: .model) : nil)
    }

    /// Whether a stream's frames get a person mask: asked for, or needed for the background.
    package var segmentsStream: Bool { personMask != nil || background != nil }

    /// The background effect for a stream's frames of `width` × `height`, nil when none.
    /// - Throws: `KameraError.invalidArgument` for a colour that is not `#rrggbb`.
    package func backgroundEffect(width: Int, height: Int) throws -> BackgroundEffect? {
        try background?.effect(blurRadius: blurRadius, color: backgroundColor, width: width, height: height)
    }

    /// `base` with the face options that do not depend on the medium.
    private func faceRequest(_ base: DetectFaceRectanglesRequest) -> DetectFaceRectanglesRequest {
        var request = base
        request.minimumFaceSize = minFaceSize
        if let minConfidence { request.minimumConfidence = minConfidence }
        if let maxFaces { request.maximumFaces = maxFaces }
        request.regionOfInterest = regionOfInterest ?? .fullImage
        return request
    }
}

extension AnalysisOptions {
    /// Every option's name on the wire (query parameter, JSON key), with its help and JSON
    /// schema: the CLI's help, the OpenAPI document and the error for an unknown name all
    /// come from here.
    package enum CodingKeys: String, CodingKey, CaseIterable, Sendable {
        case barcodes, symbologies, effort, maxCodes, faces, landmarks, faceMode, minFaceSize, minConfidence, maxFaces
        case text, recognize, languages, rectangles, maxRectangles, regionOfInterest, personMask, bodies, bodies3D, hands
        case background, blurRadius, backgroundColor, redact, textEngine

        /// What the option does, for the CLI's help and the OpenAPI document.
        package var help: String {
            switch self {
            case .barcodes: "Read barcodes (the default when no detector is named)."
            case .symbologies: "Symbologies to look for, comma-separated (default: all; see `kamera symbologies`)."
            case .effort: "Barcode effort: fast, balanced or thorough (default: balanced for photos, fast for streams)."
            case .maxCodes: "Most codes reported, 0 = all (the default); reading stops once that many are found."
            case .faces: "Detect faces with roll, yaw and pitch."
            case .landmarks: "Faces with landmark regions (Face Mesh and Iris); implies faces."
            case .faceMode:
                "How faces are looked for: tiled (small faces too; photos' default), whole (one pass), fast (MediaPipe's full-range "
                    + "pipeline) or short (faces a tenth of the image or larger). fast and short also take Face Mesh's own landmark pipeline."
            case .minFaceSize: "Smallest face side in pixels to look for (default: max(20, 1% of the long side))."
            case .minConfidence: "Lowest face confidence reported, 0…1 (default 0.5)."
            case .maxFaces: "Most faces reported, best first, 1…1000 (default 100)."
            case .text: "Find text lines, words and character boxes."
            case .recognize: "Recognize text (accurate level) instead of only finding it; implies text."
            case .languages: "Text languages, comma-separated Tesseract codes or BCP 47 tags (default: eng)."
            case .rectangles: "Find rectangles (documents, cards, screens, signs)."
            case .maxRectangles: "Most rectangles reported, 0 = all (default 1, as Vision)."
            case .regionOfInterest:
                "Analyse only this part of a photo: x,y,width,height normalized 0…1 with a lower-left origin, as Vision (results are relative to it)."
            case .hands: "Find hands: 21 joints each and which hand it is, up to 8 in photos, 4 followed with IDs in streams."
            case .bodies:
                "Find people's body poses: Vision's 19 joints with their confidences (up to 8 in photos, 4 followed with IDs in streams)."
            case .bodies3D:
                "Photos: people's body poses in metres — Vision's 17 3-D joints about the hips' middle (y up, z toward the camera), "
                    + "where each is in the image, and the body's height (up to 8 people)."
            case .personMask:
                "Segment the people at quality fast, balanced or accurate (accurate follows the image's edges at full size; streams "
                    + "default to fast, steadied between frames); reports the share of the image and where they are."
            case .background:
                "Streams: replace the background behind the people with a blur or a colour (the live view and its recordings, "
                    + "kamera scan --annotate)."
            case .blurRadius: "Background blur radius in pixels, 1…200 (default: 4 % of the frame's shorter side)."
            case .backgroundColor: "Background colour, #rrggbb (default #00b140, green-screen green)."
            case .redact:
                "Streams: cover the faces in what is shown and recorded — blur, pixelate or fill (black) — followed between "
                    + "detections and held half a second after the last (implies faces)."
            case .textEngine:
                "Text reader: automatic (the default: scene for English and Chinese, tesseract for other languages), "
                    + "scene (PP-OCRv4: signs, labels, screens, pages, tilted lines; English and Chinese) or tesseract (100+ languages). "
                    + "Streams read text at its own pace, never slowing faces and codes."
            }
        }

        /// The option's value as JSON Schema (OpenAPI 3.1).
        package var schema: JSONValue {
            switch self {
            case .barcodes, .faces, .landmarks, .text, .recognize, .rectangles, .bodies, .bodies3D, .hands: ["type": "boolean"]
            case .symbologies:
                ["type": "array", "items": ["type": "string", "enum": .array(BarcodeSymbology.allCases.map { .string($0.rawValue) })]]
            case .effort: ["type": "string", "enum": .array(DetectBarcodesRequest.Effort.allCases.map { .string($0.rawValue) })]
            case .faceMode: ["type": "string", "enum": .array(FaceMode.allCases.map { .string($0.rawValue) })]
            case .minFaceSize: ["type": "number", "exclusiveMinimum": 0, "maximum": 100_000]
            case .minConfidence: ["type": "number", "minimum": 0, "maximum": 1]
            case .maxFaces: ["type": "integer", "minimum": 1, "maximum": 1000]
            case .maxCodes: ["type": "integer", "minimum": 0, "maximum": 1000]
            case .languages: ["type": "array", "items": ["type": "string", "pattern": "^[A-Za-z0-9_-]{1,32}$"]]
            case .maxRectangles: ["type": "integer", "minimum": 0, "maximum": 1000]
            case .regionOfInterest:
                ["type": "array", "items": ["type": "number", "minimum": 0, "maximum": 1], "minItems": 4, "maxItems": 4]
            case .personMask:
                [
                    "type": "string",
                    "enum": .array(GeneratePersonSegmentationRequest.QualityLevel.allCases.map { .string($0.rawValue) }),
                ]
            case .background: ["type": "string", "enum": .array(BackgroundStyle.allCases.map { .string($0.rawValue) })]
            case .blurRadius: ["type": "number", "minimum": 1, "maximum": 200]
            case .backgroundColor: ["type": "string", "pattern": "^#[0-9A-Fa-f]{6}$"]
            case .redact: ["type": "string", "enum": .array(RedactionStyle.allCases.map { .string($0.rawValue) })]
            case .textEngine: ["type": "string", "enum": .array(RecognizeTextRequest.Engine.allCases.map { .string($0.rawValue) })]
            }
        }
    }

    /// Decodes from a JSON object or query parameters; a missing key takes its default, an
    /// unknown one is refused with the list of known ones.
    package init(from decoder: any Decoder) throws {
        try decoder.refuseUnknownKeys(CodingKeys.self)
        let values = try decoder.container(keyedBy: CodingKeys.self)
        self.init()
        for (key, flag) in Self.detectorFlags { self[keyPath: flag] = try values.decodeIfPresent(Bool.self, forKey: key) }
        if let names = try values.decodeIfPresent([String].self, forKey: .symbologies) {
            // Aliases ("ean-13", "QRCode") and "all", as the CLI's list.
            symbologies = try BarcodeSymbology.parseList(names.joined(separator: ","))
        }
        effort = try values.decodeIfPresent(DetectBarcodesRequest.Effort.self, forKey: .effort)
        faceMode = try values.decodeIfPresent(FaceMode.self, forKey: .faceMode)
        minFaceSize = try values.decodeIfPresent(Double.self, forKey: .minFaceSize)
        minConfidence = try values.decodeIfPresent(Float.self, forKey: .minConfidence)
        maxFaces = try values.decodeIfPresent(Int.self, forKey: .maxFaces)
        maxCodes = try values.decodeIfPresent(Int.self, forKey: .maxCodes)
        languages = try values.decodeIfPresent([String].self, forKey: .languages) ?? languages
        maxRectangles = try values.decodeIfPresent(Int.self, forKey: .maxRectangles)
        if let region = try values.decodeIfPresent([Double].self, forKey: .regionOfInterest) {
            guard region.count == 4 else { throw KameraError.invalidArgument("regionOfInterest is four numbers: x,y,width,height") }
            regionOfInterest = NormalizedRect(x: region[0], y: region[1], width: region[2], height: region[3])
        }
        personMask = try values.decodeIfPresent(GeneratePersonSegmentationRequest.QualityLevel.self, forKey: .personMask)
        background = try values.decodeIfPresent(BackgroundStyle.self, forKey: .background)
        blurRadius = try values.decodeIfPresent(Double.self, forKey: .blurRadius)
        backgroundColor = try values.decodeIfPresent(String.self, forKey: .backgroundColor)
        redact = try values.decodeIfPresent(RedactionStyle.self, forKey: .redact)
        textEngine = try values.decodeIfPresent(RecognizeTextRequest.Engine.self, forKey: .textEngine)
    }

    package func encode(to encoder: any Encoder) throws {
        var values = encoder.container(keyedBy: CodingKeys.self)
        for (key, flag) in Self.detectorFlags { try values.encodeIfPresent(self[keyPath: flag], forKey: key) }
        try values.encodeIfPresent(symbologies?.map(\.rawValue), forKey: .symbologies)
        try values.encodeIfPresent(effort, forKey: .effort)
        try values.encodeIfPresent(faceMode, forKey: .faceMode)
        try values.encodeIfPresent(minFaceSize, forKey: .minFaceSize)
        try values.encodeIfPresent(minConfidence, forKey: .minConfidence)
        try values.encodeIfPresent(maxFaces, forKey: .maxFaces)
        try values.encodeIfPresent(maxCodes, forKey: .maxCodes)
        try values.encode(languages, forKey: .languages)
        try values.encodeIfPresent(maxRectangles, forKey: .maxRectangles)
        try values.encodeIfPresent(
            regionOfInterest.map { [$0.x, $0.y, $0.width, $0.height] }, forKey: .regionOfInterest)
        try values.encodeIfPresent(personMask, forKey: .personMask)
        try values.encodeIfPresent(background, forKey: .background)
        try values.encodeIfPresent(blurRadius, forKey: .blurRadius)
        try values.encodeIfPresent(backgroundColor, forKey: .backgroundColor)
        try values.encodeIfPresent(redact, forKey: .redact)
        try values.encodeIfPresent(textEngine, forKey: .textEngine)
    }

    /// Decodes options from a JSON text, every failure as one readable invalid-argument error.
    /// - Throws: `KameraError.invalidArgument`.
    package static func decoding(json text: String) throws -> AnalysisOptions {
        try readably { try JSONDecoder().decode(AnalysisOptions.self, from: Data(text.utf8)) }
    }

    /// Decodes options from query parameters (`?faces&minConfidence=0.7&symbologies=qr,ean13`).
    /// - Throws: `KameraError.invalidArgument`.
    package static func decoding(query: [(key: String, value: String)]) throws -> AnalysisOptions {
        try readably { try QueryDecoder().decode(AnalysisOptions.self, from: query) }
    }

    private static func readably(_ body: () throws -> AnalysisOptions) throws -> AnalysisOptions {
        do {
            return try body()
        } catch let error as DecodingError {
            throw KameraError.invalidArgument(error.readableDescription)
        }
    }
}
