import Foundation
import Kamera

extension DetectionReport {
    /// A readable table: one row per code, or per file without codes.
    package func table() -> String {
        var rows: [[String]] = [["INPUT", "SIZE", "KIND", "PAYLOAD / TEXT", "CORNERS / BOX (px)"]]
        for result in results {
            let size = result.width.map { "\($0)×\(result.height ?? 0)" } ?? "-"
            if let error = result.error {
                rows.append([result.input, size, "error", error.message, ""])
            } else if let barcodes = result.barcodes, !barcodes.isEmpty {
                for code in barcodes {
                    let corners = code.pixelCorners.map { "\(Self.pixels($0[0])),\(Self.pixels($0[1]))" }.joined(separator: " ")
                    let main =
                        code.payload.map { $0.count > 40 ? $0.prefix(39) + "…" : Substring($0) }.map(String.init)
                        ?? "<\(Data(base64Encoded: code.payloadBase64)?.count ?? 0) bytes>"
                    let payload = code.supplementalPayload.map { "\(main) +\($0)" } ?? main
                    rows.append([result.input, size, code.symbology, Self.visible(payload), corners])
                }
            } else if result.text == nil && result.faces == nil && result.rectangles == nil && result.bodies == nil
                && result.bodies3D == nil && result.personMask == nil && result.hands == nil
            {
                rows.append([result.input, size, "-", "(no codes)", ""])
            }
            for face in result.faces ?? [] {
                let b = face.pixelBox
                let angles = [face.roll, face.yaw, face.pitch].map { String(format: "%.0f°", $0) }.joined(separator: " ")
                rows.append([
                    result.input, size, "face", String(format: "%.2f roll/yaw/pitch %@", face.confidence, angles),
                    "\(Self.pixels(b.x)),\(Self.pixels(b.y)) \(Self.pixels(b.width))×\(Self.pixels(b.height))",
                ])
            }
            for rectangle in result.rectangles ?? [] {
                let corners = rectangle.pixelCorners.map { "\(Self.pixels($0[0])),\(Self.pixels($0[1]))" }.joined(separator: " ")
                rows.append([result.input, size, "rectangle", String(format: "%.2f", rectangle.confidence), corners])
            }
            for body in result.bodies ?? [] {
                let b = body.pixelBox
                let sure = body.joints.filter { $0.confidence >= 0.5 }.count
                rows.append([
                    result.input, size, "body", String(format: "%.2f, %d of 19 joints sure", body.confidence, sure),
                    "\(Self.pixels(b.x)),\(Self.pixels(b.y)) \(Self.pixels(b.width))×\(Self.pixels(b.height))",
                ])
            }
            for body in result.bodies3D ?? [] {
                // Where the hips' middle is in the image: the point the metres are measured from.
                let root = body.joints.first { $0.name == .root }.map { "\(Self.pixels($0.imageX)),\(Self.pixels($0.imageY))" } ?? ""
                let summary = String(format: "%.2f, %.2f m tall, %d joints", body.confidence, body.bodyHeight, body.joints.count)
                rows.append([result.input, size, "body 3-D", summary, root])
            }
            for hand in result.hands ?? [] {
                let wrist = hand.joints.first.map { "\(Self.pixels($0.x)),\(Self.pixels($0.y))" } ?? ""
                rows.append([result.input, size, "hand", String(format: "%.2f %@", hand.confidence, hand.chirality.rawValue), wrist])
            }
            if let mask = result.personMask {
                let box =
                    mask.pixelBox.map { "\(Self.pixels($0.x)),\(Self.pixels($0.y)) \(Self.pixels($0.width))×\(Self.pixels($0.height))" }
                    ?? ""
                rows.append([
                    result.input, size, "people",
                    String(format: "%.0f %% of the image (%@ mask)", 100 * mask.coverage, mask.quality.rawValue), box,
                ])
            }
            for line in result.text ?? [] {
                let b = line.pixelBox
                rows.append([
                    result.input, size, "text", line.string,
                    "\(Self.pixels(b.x)),\(Self.pixels(b.y)) \(Self.pixels(b.width))×\(Self.pixels(b.height))",
                ])
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
    /// A pixel coordinate rounded toward zero for the table; `Int(_:)` would trap on a NaN or
    /// an infinity, and a table must print whatever a report holds.
    static func pixels(_ value: Double) -> String {
        value.isFinite ? String(format: "%.0f", value.rounded(.towardZero) + 0) : "?"
    }

    /// Control characters named for the table (`<GS>`, `<EOT>`), so GS1 and ISO 15434
    /// separators stay visible and cannot move the cursor; JSON keeps the characters themselves.
    static func visible(_ text: String) -> String {
        let names = [
            "NUL", "SOH", "STX", "ETX", "EOT", "ENQ", "ACK", "BEL", "BS", "HT", "LF", "VT", "FF", "CR", "SO", "SI",
            "DLE", "DC1", "DC2", "DC3", "DC4", "NAK", "SYN", "ETB", "CAN", "EM", "SUB", "ESC", "FS", "GS", "RS", "US",
        ]
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
