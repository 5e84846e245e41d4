import Foundation
import Kamera
import KameraReports

/// `POST /v1/detect`'s query: which detectors run, as `kamera detect`'s flags
/// (`?barcodes&faces&landmarks&text&recognize&rectangles`, `effort=`, `languages=`).
/// Barcodes alone when no detector is named; an unknown name is an error, not ignored, so a
/// typo does not silently return nothing.
struct DetectQuery {
    static let flags: Set<String> = ["barcodes", "faces", "landmarks", "text", "recognize", "rectangles"]
    static let options: Set<String> = ["effort", "languages", "name"]

    var analysis: ImageAnalysis
    /// The `input` the result reports (`name=`, default "body").
    var name: String

    init(_ parameters: [(key: String, value: String)]) throws {
        var on = Set<String>()
        var values: [String: String] = [:]
        for (key, value) in parameters {
            if Self.flags.contains(key) {
                switch value.lowercased() {
                case "", "1", "true", "yes": on.insert(key)
                case "0", "false", "no": on.remove(key)
                default: throw APIError.badRequest("\(key)=\(value) is not true or false", hint: "write ?\(key) or ?\(key)=false")
                }
            } else if Self.options.contains(key) {
                values[key] = value
            } else {
                throw APIError.badRequest(
                    "unknown query parameter '\(key)'",
                    hint: "use \((Self.flags.union(Self.options)).sorted().joined(separator: ", "))")
            }
        }
        var effort = DetectBarcodesRequest.Effort.balanced
        if let text = values["effort"] {
            guard let chosen = DetectBarcodesRequest.Effort(rawValue: text) else {
                throw APIError.badRequest("effort=\(text) is not fast, balanced or thorough", hint: "use effort=fast|balanced|thorough")
            }
            effort = chosen
        }
        let languages = (values["languages"] ?? "eng").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        let detectsFaces = on.contains("faces") || on.contains("landmarks")
        let detectsText = on.contains("text") || on.contains("recognize")
        let namesNone = !detectsFaces && !detectsText && !on.contains("rectangles")
        analysis = ImageAnalysis(
            barcodes: on.contains("barcodes") || namesNone ? DetectBarcodesRequest(effort: effort) : nil,
            faces: detectsFaces
                ? ImageAnalysis.FaceAnalysis(detection: DetectFaceRectanglesRequest(), landmarks: on.contains("landmarks")) : nil,
            text: detectsText ? ImageAnalysis.TextAnalysis(recognize: on.contains("recognize"), languages: languages) : nil,
            rectangles: on.contains("rectangles") ? DetectRectanglesRequest() : nil)
        name = values["name"] ?? "body"
    }
}
