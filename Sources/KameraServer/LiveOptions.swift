import Foundation
import Kamera

/// What a live connection asks for, sent by the page as a text message whenever a toggle
/// changes: `{"faces":true,"landmarks":false,"codes":true,"text":false}`.
struct LiveOptions: Codable, Equatable, Sendable {
    var faces = true
    var landmarks = false
    var codes = true
    var text = false

    /// The scanner's configuration for these options (at most one frame per 1/15 s of
    /// detection work, so following fills the frames between detections).
    var scannerConfiguration: LiveScanner.Configuration {
        LiveScanner.Configuration(
            faceDetection: faces || landmarks ? DetectFaceRectanglesRequest(scansTiles: false) : nil,
            faceLandmarks: landmarks ? DetectFaceLandmarksRequest() : nil,
            barcodes: codes ? DetectBarcodesRequest(effort: .fast) : nil,
            frameBudget: 1.0 / 15)
    }
}
