import Foundation
import Kamera

/// The one JSON document `kamera detect` prints per run (and `POST /v1/detect` answers).
package struct DetectionReport {
    /// Why an input failed: `code` is `KameraError.Code`'s name (stable, to branch on),
    /// `message` and `hint` are for people.
    package struct FileError: Codable, Sendable {
        package var code: KameraError.Code
        package var message: String
        package var hint: String

        package init(code: KameraError.Code, message: String, hint: String) {
            (self.code, self.message, self.hint) = (code, message, hint)
        }
    }

    /// One input's results; absent parts are left out of the JSON.
    package struct FileResult: Codable, Sendable {
        package var input: String
        package var width: Int?
        package var height: Int?
        package var barcodes: [BarcodeRecord]?
        package var faces: [FaceRecord]?
        package var text: [TextRecord]?
        package var rectangles: [RectangleRecord]?
        package var personMask: PersonMaskRecord?
        package var bodies: [BodyPoseRecord]?
        package var bodies3D: [BodyPose3DRecord]?
        package var hands: [HandPoseRecord]?
        package var annotated: String?
        /// The image was damaged but mostly decoded (e.g. a JPEG cut short).
        package var warning: String?
        package var error: FileError?

        package init(
            input: String, width: Int? = nil, height: Int? = nil, barcodes: [BarcodeRecord]? = nil, faces: [FaceRecord]? = nil,
            text: [TextRecord]? = nil, rectangles: [RectangleRecord]? = nil, annotated: String? = nil, warning: String? = nil,
            error: FileError? = nil
        ) {
            (self.input, self.width, self.height, self.barcodes, self.faces) = (input, width, height, barcodes, faces)
            (self.text, self.rectangles, self.annotated, self.warning, self.error) = (text, rectangles, annotated, warning, error)
        }
    }

    package var results: [FileResult]

    package init(results: [FileResult]) {
        self.results = results
    }

    /// Pretty JSON with keys in the documented order.
    package func json() throws -> String {
        try JSONValueEncoder.encode(["results": results]).rendered()
    }
}

extension KameraError.Code {
    /// A failure that is not a `KameraError` (a bug): reported, never a crash.
    package static let unexpected = KameraError.Code(rawValue: "unexpected")
}

extension DetectionReport.FileError {
    package init(_ error: any Error) {
        if let kamera = error as? KameraError {
            self.init(code: kamera.code, message: kamera.reason, hint: kamera.hint)
        } else {
            self.init(code: .unexpected, message: String(describing: error), hint: "please report this input")
        }
    }
}
