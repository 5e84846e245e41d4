import Foundation
import Kamera

/// The one JSON document `kamera detect` prints per run.
struct DetectionReport: Codable {
    struct FileError: Codable {
        var message: String
        var hint: String
    }

    struct FileResult: Codable {
        var input: String
        var width: Int?
        var height: Int?
        var barcodes: [BarcodeRecord]?
        var annotated: String?
        var error: FileError?
    }

    var results: [FileResult]

    /// Pretty JSON with keys in the documented order.
    func json() throws -> String {
        JSONValue.object([("results", .array(results.map(\.jsonValue)))]).rendered()
    }

    /// A readable table: one row per code, or per file without codes.
    func table() -> String {
        var rows: [[String]] = [["INPUT", "SIZE", "SYMBOLOGY", "PAYLOAD", "CORNERS (px)"]]
        for result in results {
            let size = result.width.map { "\($0)×\(result.height ?? 0)" } ?? "-"
            if let error = result.error {
                rows.append([result.input, size, "error", error.message, ""])
            } else if let barcodes = result.barcodes, !barcodes.isEmpty {
                for code in barcodes {
                    let corners = code.pixelCorners.map { "\(Int($0[0])),\(Int($0[1]))" }.joined(separator: " ")
                    let payload = code.payload.map { $0.count > 40 ? $0.prefix(39) + "…" : Substring($0) }.map(String.init)
                        ?? "<\(Data(base64Encoded: code.payloadBase64)?.count ?? 0) bytes>"
                    rows.append([result.input, size, code.symbology, payload.replacingOccurrences(of: "\n", with: "⏎"), corners])
                }
            } else {
                rows.append([result.input, size, "-", "(no codes)", ""])
            }
        }
        let widths = (0..<5).map { column in rows.map { $0[column].count }.max() ?? 0 }
        return rows.map { row in
            row.enumerated().map { $1.padding(toLength: widths[$0], withPad: " ", startingAt: 0) }
                .joined(separator: "  ").trimmingCharacters(in: .whitespaces)
        }.joined(separator: "\n")
    }
}

extension DetectionReport.FileResult {
    var jsonValue: JSONValue {
        var members: [(String, JSONValue)] = [("input", .string(input))]
        if let width, let height { members += [("width", .int(width)), ("height", .int(height))] }
        if let barcodes { members.append(("barcodes", .array(barcodes.map(\.jsonValue)))) }
        if let annotated { members.append(("annotated", .string(annotated))) }
        if let error { members.append(("error", .object([("message", .string(error.message)), ("hint", .string(error.hint))]))) }
        return .object(members)
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
            ("boundingBox", box(boundingBox)),
            ("pixelCorners", .array(pixelCorners.map { .array($0.map(JSONValue.number)) })),
            ("pixelBox", box(pixelBox)),
            ("confidence", .number(Double(confidence))),
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
