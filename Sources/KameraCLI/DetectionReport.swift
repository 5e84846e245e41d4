import Foundation
import Kamera

/// The one JSON document `kamera detect` prints per run.
struct DetectionReport {
    struct FileError {
        var message: String
        var hint: String
    }

    struct FileResult {
        var input: String
        var width: Int?
        var height: Int?
        var barcodes: [BarcodeRecord]?
        var faces: [FaceRecord]?
        var text: [TextRecord]?
        var annotated: String?
        /// The image was damaged but mostly decoded (e.g. a JPEG cut short).
        var warning: String?
        var error: FileError?
    }

    var results: [FileResult]

    /// Pretty JSON with keys in the documented order.
    func json() throws -> String {
        JSONValue.object([("results", .array(results.map(\.jsonValue)))]).rendered()
    }

    /// A readable table: one row per code, or per file without codes.
    func table() -> String {
        var rows: [[String]] = [["INPUT", "SIZE", "KIND", "PAYLOAD / TEXT", "CORNERS / BOX (px)"]]
        for result in results {
            let size = result.width.map { "\($0)×\(result.height ?? 0)" } ?? "-"
            if let error = result.error {
                rows.append([result.input, size, "error", error.message, ""])
            } else if let barcodes = result.barcodes, !barcodes.isEmpty {
                for code in barcodes {
                    let corners = code.pixelCorners.map { "\(Int($0[0])),\(Int($0[1]))" }.joined(separator: " ")
                    let main = code.payload.map { $0.count > 40 ? $0.prefix(39) + "…" : Substring($0) }.map(String.init)
                        ?? "<\(Data(base64Encoded: code.payloadBase64)?.count ?? 0) bytes>"
                    let payload = code.supplementalPayload.map { "\(main) +\($0)" } ?? main
                    rows.append([result.input, size, code.symbology, Self.visible(payload), corners])
                }
            } else if result.text == nil && result.faces == nil {
                rows.append([result.input, size, "-", "(no codes)", ""])
            }
            for face in result.faces ?? [] {
                let b = face.observation.pixelBox
                let angles = [face.observation.roll, face.observation.yaw, face.observation.pitch]
                    .map { String(format: "%.0f°", $0.inDegrees) }.joined(separator: " ")
                rows.append([result.input, size, "face", String(format: "%.2f roll/yaw/pitch %@", face.observation.confidence, angles),
                             "\(Int(b.x)),\(Int(b.y)) \(Int(b.width))×\(Int(b.height))"])
            }
            for line in result.text ?? [] {
                let b = line.pixelBox
                rows.append([result.input, size, "text", line.string, "\(Int(b.x)),\(Int(b.y)) \(Int(b.width))×\(Int(b.height))"])
            }
        }
        let widths = (0..<5).map { column in rows.map { $0[column].count }.max() ?? 0 }
        return rows.map { row in
            row.enumerated().map { $1.padding(toLength: widths[$0], withPad: " ", startingAt: 0) }
                .joined(separator: "  ").trimmingCharacters(in: .whitespaces)
        }.joined(separator: "\n")
    }
}

extension DetectionReport {
    /// Control characters named for the table (`<GS>`, `<EOT>`), so GS1 and ISO 15434
    /// separators stay visible and cannot move the cursor; JSON keeps the characters themselves.
    static func visible(_ text: String) -> String {
        let names = ["NUL", "SOH", "STX", "ETX", "EOT", "ENQ", "ACK", "BEL", "BS", "HT", "LF", "VT", "FF", "CR", "SO", "SI",
                     "DLE", "DC1", "DC2", "DC3", "DC4", "NAK", "SYN", "ETB", "CAN", "EM", "SUB", "ESC", "FS", "GS", "RS", "US"]
        var out = ""
        for scalar in text.unicodeScalars {
            if scalar.value < 0x20 {
                out += "<\(names[Int(scalar.value)])>"
            } else if scalar.value == 0x7F {
                out += "<DEL>"
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}

extension DetectionReport.FileResult {
    var jsonValue: JSONValue {
        var members: [(String, JSONValue)] = [("input", .string(input))]
        if let width, let height { members += [("width", .int(width)), ("height", .int(height))] }
        if let barcodes { members.append(("barcodes", .array(barcodes.map(\.jsonValue)))) }
        if let faces { members.append(("faces", .array(faces.map(\.jsonValue)))) }
        if let text { members.append(("text", .array(text.map(\.jsonValue)))) }
        if let annotated { members.append(("annotated", .string(annotated))) }
        if let warning { members.append(("warning", .string(warning))) }
        if let error { members.append(("error", .object([("message", .string(error.message)), ("hint", .string(error.hint))]))) }
        return .object(members)
    }
}

/// One line of text as `kamera detect --text` prints it.
struct TextRecord {
    struct Character {
        var character: String
        var boundingBox: NormalizedRect
        var pixelBox: PixelRect
    }

    struct Word {
        var string: String
        var confidence: Float
        var boundingBox: NormalizedRect
        var pixelBox: PixelRect
        var characterBoxes: [Character]?
    }

    var boundingBox: NormalizedRect
    var pixelBox: PixelRect
    var string: String
    var confidence: Float
    var characterBoxes: [Character]?
    var words: [Word]

    init(_ line: TextObservation) {
        func characters(_ o: TextObservation) -> [Character]? {
            o.characterBoxes?.map { Character(character: $0.character, boundingBox: $0.boundingBox, pixelBox: $0.pixelBox) }
        }
        boundingBox = line.boundingBox
        pixelBox = line.pixelBox
        string = line.string
        confidence = line.confidence
        characterBoxes = characters(line)
        words = line.words.map { Word(string: $0.string, confidence: $0.confidence, boundingBox: $0.boundingBox, pixelBox: $0.pixelBox,
                                      characterBoxes: characters($0)) }
    }

    init(_ line: RecognizedTextObservation) {
        self.init(line.textObservation)
    }

    var jsonValue: JSONValue {
        func characters(_ list: [Character]?) -> [(String, JSONValue)] {
            guard let list else { return [] }
            return [("characterBoxes", .array(list.map {
                .object([("character", .string($0.character)), ("boundingBox", .box($0.boundingBox)), ("pixelBox", .box($0.pixelBox))])
            }))]
        }
        return .object([("boundingBox", .box(boundingBox)), ("pixelBox", .box(pixelBox)), ("string", .string(string)),
                        ("confidence", .score(Double(confidence)))] + characters(characterBoxes) + [
            ("words", .array(words.map { word in
                .object([("string", .string(word.string)), ("confidence", .score(Double(word.confidence))),
                         ("boundingBox", .box(word.boundingBox)), ("pixelBox", .box(word.pixelBox))] + characters(word.characterBoxes))
            })),
        ])
    }
}

extension BarcodeRecord {
    var jsonValue: JSONValue {
        func box(_ b: Box) -> JSONValue {
            .object([("x", .number(b.x)), ("y", .number(b.y)), ("width", .number(b.width)), ("height", .number(b.height))])
        }
        return .object([
            ("symbology", .string(symbology)),
            ("payload", payload.map(JSONValue.string) ?? .null),
            ("payloadBase64", .string(payloadBase64)),
            ("supplementalPayload", supplementalPayload.map(JSONValue.string) ?? .null),
            ("boundingBox", box(boundingBox)),
            ("pixelCorners", .array(pixelCorners.map { .array($0.map(JSONValue.number)) })),
            ("pixelBox", box(pixelBox)),
            ("confidence", .score(Double(confidence))),
            ("orientation", .int(orientation)),
            ("mirrored", .bool(mirrored)),
            ("inverted", .bool(inverted)),
            ("symbologyIdentifier", .string(symbologyIdentifier)),
            ("errorCorrectionLevel", errorCorrectionLevel.map(JSONValue.string) ?? .null),
        ])
    }
}

extension DetectionReport.FileError {
    init(_ error: Error) {
        if let kamera = error as? KameraError {
            self.init(message: kamera.reason, hint: kamera.hint)
        } else {
            self.init(message: String(describing: error), hint: "")
        }
    }
}
