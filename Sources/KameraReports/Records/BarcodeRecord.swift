import Foundation
import Kamera

/// A ``BarcodeObservation`` as JSON (`kamera detect`, `kamera scan`, later the web app), keys
/// in declaration order: normalized lower-left `boundingBox`, top-left `pixelCorners` in the
/// order topLeft, topRight, bottomRight, bottomLeft, and the top-left `pixelBox`.
package struct BarcodeRecord: Codable, Sendable, Equatable {
    package var symbology: String
    /// The payload as text; null for binary payloads (see `payloadBase64`).
    @Nullable package var payload: String?
    package var payloadBase64: String
    /// The EAN-2/EAN-5 add-on's digits, if the code has one.
    @Nullable package var supplementalPayload: String?
    package var boundingBox: RecordBox
    package var pixelCorners: [[Double]]
    package var pixelBox: RecordBox
    package var confidence: Double
    package var orientation: Int
    package var mirrored: Bool
    package var inverted: Bool
    package var symbologyIdentifier: String
    @Nullable package var errorCorrectionLevel: String?

    package init(_ o: BarcodeObservation) {
        symbology = o.symbology.rawValue
        payload = o.payloadString
        payloadBase64 = o.payloadData.base64EncodedString()
        supplementalPayload = o.supplementalPayloadString
        boundingBox = RecordBox(o.boundingBox)
        pixelCorners = o.pixelCorners.corners.map { [RecordRounding.pixels($0.x), RecordRounding.pixels($0.y)] }
        pixelBox = RecordBox(o.pixelBounds)
        confidence = RecordRounding.score(Double(o.confidence))
        orientation = o.orientation
        mirrored = o.isMirrored
        inverted = o.isInverted
        symbologyIdentifier = o.symbologyIdentifier
        errorCorrectionLevel = o.errorCorrectionLevel
    }
}
