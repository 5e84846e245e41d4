import Kamera

/// What to redact and how: the one description `kamera redact` (flags), `POST /v1/redact`
/// (query parameters) and the live view read, turned into a `Redactor.Configuration` by
/// `configuration()`. A missing key takes its default (faces, blurred); an unknown key is an
/// error.
package struct RedactionOptions: Codable, Equatable, Sendable {
    package var faces: Bool?
    package var codes: Bool?
    package var text: Bool?
    package var people: Bool?
    package var style: RedactionStyle?
    package var padding: Double?
    package var minConfidence: Float?
    package var minFaceSize: Double?
    package var tiles: Bool?
    package var follow: Double?
    package var hold: Double?
    package var lead: Double?

    package init() {}

    /// What is covered: the kinds named true, or faces when none is named.
    package var kinds: Set<RedactionKind> {
        let named: [(Bool?, RedactionKind)] = [(faces, .face), (codes, .barcode), (text, .text), (people, .person)]
        guard named.contains(where: { $0.0 != nil }) else { return [.face] }
        return Set(named.filter { $0.0 == true }.map(\.1))
    }

    /// The redactor's configuration.
    /// - Throws: `KameraError.invalidArgument` naming the option out of range.
    package func configuration() throws -> Redactor.Configuration {
        let defaults = Redactor.Configuration()
        let configuration = Redactor.Configuration(
            kinds: kinds, style: style ?? defaults.style, padding: padding,
            minimumFaceConfidence: minConfidence ?? defaults.minimumFaceConfidence, minimumFaceSize: minFaceSize,
            tiledStreamFaces: tiles ?? defaults.tiledStreamFaces, follow: follow ?? defaults.follow, hold: hold ?? defaults.hold,
            lead: lead ?? defaults.lead)
        try configuration.validate()
        return configuration
    }

    package enum CodingKeys: String, CodingKey, CaseIterable, Sendable {
        case faces, codes, text, people, style, padding, minConfidence, minFaceSize, tiles, follow, hold, lead

        /// What the option does, for the CLI's help and the OpenAPI document.
        package var help: String {
            switch self {
            case .faces: "Cover faces (the default when nothing is named)."
            case .codes: "Cover barcodes and 2-D codes."
            case .text: "Cover text lines (signs, plates, screens, documents)."
            case .people: "Cover whole people, by the person mask."
            case .style: "How covered areas look: blur (the default), pixelate or fill (black)."
            case .padding: "Margin around each area, a fraction of its size on each side, 0…2 (default: faces 0.25, codes and text 0.1)."
            case .minConfidence: "Lowest face confidence covered, 0…1 (default 0.4: a blurred patch of wall costs less than a missed face)."
            case .minFaceSize: "Smallest face side in pixels to look for (default: max(20, 1% of the long side))."
            case .tiles: "Video: look for small, distant faces too (the default; false scans whole frames only, faster). Photos always do."
            case .follow:
                "Video: seconds a face is followed by its look after the detector lost it (turned away, half hidden), 0…60 (default 4; 0: off)."
            case .hold: "Video: seconds an area stays covered after it was last seen, 0…60 (default 1)."
            case .lead: "Video: seconds an area is covered before it is first seen (frames are held back), 0…60 (default 1)."
            }
        }

        /// The option's value as JSON Schema (OpenAPI 3.1).
        package var schema: JSONValue {
            switch self {
            case .faces, .codes, .text, .people, .tiles: ["type": "boolean"]
            case .style: ["type": "string", "enum": .array(RedactionStyle.allCases.map { .string($0.rawValue) })]
            case .padding: ["type": "number", "minimum": 0, "maximum": 2]
            case .minConfidence: ["type": "number", "minimum": 0, "maximum": 1]
            case .minFaceSize: ["type": "number", "exclusiveMinimum": 0, "maximum": 100_000]
            case .follow, .hold, .lead: ["type": "number", "minimum": 0, "maximum": 60]
            }
        }
    }

    /// The options in a URL query (`faces`, `codes=true`, `style=pixelate`, …).
    /// - Throws: `KameraError.invalidArgument` naming the key or value that does not fit.
    package static func decoding(query: [(key: String, value: String)]) throws -> RedactionOptions {
        do {
            return try QueryDecoder().decode(RedactionOptions.self, from: query)
        } catch let error as DecodingError {
            throw KameraError.invalidArgument(error.readableDescription)
        }
    }

    /// Decodes from a JSON object or query parameters, refusing unknown keys.
    package init(from decoder: any Decoder) throws {
        try decoder.refuseUnknownKeys(CodingKeys.self)
        let values = try decoder.container(keyedBy: CodingKeys.self)
        faces = try values.decodeIfPresent(Bool.self, forKey: .faces)
        codes = try values.decodeIfPresent(Bool.self, forKey: .codes)
        text = try values.decodeIfPresent(Bool.self, forKey: .text)
        people = try values.decodeIfPresent(Bool.self, forKey: .people)
        style = try values.decodeIfPresent(RedactionStyle.self, forKey: .style)
        padding = try values.decodeIfPresent(Double.self, forKey: .padding)
        minConfidence = try values.decodeIfPresent(Float.self, forKey: .minConfidence)
        minFaceSize = try values.decodeIfPresent(Double.self, forKey: .minFaceSize)
        tiles = try values.decodeIfPresent(Bool.self, forKey: .tiles)
        follow = try values.decodeIfPresent(Double.self, forKey: .follow)
        hold = try values.decodeIfPresent(Double.self, forKey: .hold)
        lead = try values.decodeIfPresent(Double.self, forKey: .lead)
    }
}
