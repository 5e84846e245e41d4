import Foundation
import Kamera

extension AnalysisOptions {
    /// Every option's name on the wire (query parameter, JSON key), with its help and JSON
    /// schema: the CLI's help, the OpenAPI document and the error for an unknown name all
    /// come from here.
    package enum CodingKeys: String, CodingKey, CaseIterable, Sendable {
        case barcodes, symbologies, effort, faces, landmarks, faceMode, minFaceSize, minConfidence, maxFaces
        case text, recognize, languages, rectangles, maxRectangles, regionOfInterest

        /// What the option does, for the CLI's help and the OpenAPI document.
        package var help: String {
            switch self {
            case .barcodes: "Read barcodes (the default when no detector is named)."
            case .symbologies: "Symbologies to look for, comma-separated (default: all; see `kamera symbologies`)."
            case .effort: "Barcode effort: fast, balanced or thorough (default: balanced for photos, fast for streams)."
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
            }
        }

        /// The option's value as JSON Schema (OpenAPI 3.1).
        package var schema: JSONValue {
            switch self {
            case .barcodes, .faces, .landmarks, .text, .recognize, .rectangles: ["type": "boolean"]
            case .symbologies:
                ["type": "array", "items": ["type": "string", "enum": .array(BarcodeSymbology.allCases.map { .string($0.rawValue) })]]
            case .effort: ["type": "string", "enum": .array(DetectBarcodesRequest.Effort.allCases.map { .string($0.rawValue) })]
            case .faceMode: ["type": "string", "enum": .array(FaceMode.allCases.map { .string($0.rawValue) })]
            case .minFaceSize: ["type": "number", "exclusiveMinimum": 0, "maximum": 100_000]
            case .minConfidence: ["type": "number", "minimum": 0, "maximum": 1]
            case .maxFaces: ["type": "integer", "minimum": 1, "maximum": 1000]
            case .languages: ["type": "array", "items": ["type": "string", "pattern": "^[A-Za-z0-9_-]{1,32}$"]]
            case .maxRectangles: ["type": "integer", "minimum": 0, "maximum": 1000]
            case .regionOfInterest:
                ["type": "array", "items": ["type": "number", "minimum": 0, "maximum": 1], "minItems": 4, "maxItems": 4]
            }
        }
    }

    /// Decodes from a JSON object or query parameters; a missing key takes its default, an
    /// unknown one is refused with the list of known ones.
    package init(from decoder: any Decoder) throws {
        try decoder.refuseUnknownKeys(CodingKeys.self)
        let values = try decoder.container(keyedBy: CodingKeys.self)
        self.init()
        barcodes = try values.decodeIfPresent(Bool.self, forKey: .barcodes)
        if let names = try values.decodeIfPresent([String].self, forKey: .symbologies) {
            // Aliases ("ean-13", "QRCode") and "all", as the CLI's list.
            symbologies = try BarcodeSymbology.parseList(names.joined(separator: ","))
        }
        effort = try values.decodeIfPresent(DetectBarcodesRequest.Effort.self, forKey: .effort)
        faces = try values.decodeIfPresent(Bool.self, forKey: .faces)
        landmarks = try values.decodeIfPresent(Bool.self, forKey: .landmarks)
        faceMode = try values.decodeIfPresent(FaceMode.self, forKey: .faceMode)
        minFaceSize = try values.decodeIfPresent(Double.self, forKey: .minFaceSize)
        minConfidence = try values.decodeIfPresent(Float.self, forKey: .minConfidence)
        maxFaces = try values.decodeIfPresent(Int.self, forKey: .maxFaces)
        text = try values.decodeIfPresent(Bool.self, forKey: .text)
        recognize = try values.decodeIfPresent(Bool.self, forKey: .recognize)
        languages = try values.decodeIfPresent([String].self, forKey: .languages) ?? languages
        rectangles = try values.decodeIfPresent(Bool.self, forKey: .rectangles)
        maxRectangles = try values.decodeIfPresent(Int.self, forKey: .maxRectangles)
        if let region = try values.decodeIfPresent([Double].self, forKey: .regionOfInterest) {
            guard region.count == 4 else { throw KameraError.invalidArgument("regionOfInterest is four numbers: x,y,width,height") }
            regionOfInterest = NormalizedRect(x: region[0], y: region[1], width: region[2], height: region[3])
        }
    }

    package func encode(to encoder: any Encoder) throws {
        var values = encoder.container(keyedBy: CodingKeys.self)
        try values.encodeIfPresent(barcodes, forKey: .barcodes)
        try values.encodeIfPresent(symbologies?.map(\.rawValue), forKey: .symbologies)
        try values.encodeIfPresent(effort, forKey: .effort)
        try values.encodeIfPresent(faces, forKey: .faces)
        try values.encodeIfPresent(landmarks, forKey: .landmarks)
        try values.encodeIfPresent(faceMode, forKey: .faceMode)
        try values.encodeIfPresent(minFaceSize, forKey: .minFaceSize)
        try values.encodeIfPresent(minConfidence, forKey: .minConfidence)
        try values.encodeIfPresent(maxFaces, forKey: .maxFaces)
        try values.encodeIfPresent(text, forKey: .text)
        try values.encodeIfPresent(recognize, forKey: .recognize)
        try values.encode(languages, forKey: .languages)
        try values.encodeIfPresent(rectangles, forKey: .rectangles)
        try values.encodeIfPresent(maxRectangles, forKey: .maxRectangles)
        try values.encodeIfPresent(
            regionOfInterest.map { [$0.x, $0.y, $0.width, $0.height] }, forKey: .regionOfInterest)
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

extension DecodingError {
    /// One line naming the key and what was wrong with its value, for an API client.
    package var readableDescription: String {
        func path(_ context: Context) -> String {
            context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
        }
        switch self {
        case .typeMismatch(let type, let context): return "\(path(context)): expected \(Self.name(type)); \(context.debugDescription)"
        case .valueNotFound(let type, let context): return "\(path(context)): expected \(Self.name(type)), found null"
        case .keyNotFound(let key, _): return "missing \(key.stringValue)"
        case .dataCorrupted(let context):
            let at = path(context)
            return at.isEmpty ? "not valid JSON: \(context.debugDescription)" : "\(at): \(context.debugDescription)"
        @unknown default: return "\(self)"
        }
    }

    private static func name(_ type: Any.Type) -> String {
        switch type {
        case is Bool.Type: "true or false"
        case is Int.Type: "a whole number"
        case is Double.Type, is Float.Type: "a number"
        case is String.Type: "a string"
        default: "\(type)"
        }
    }
}
