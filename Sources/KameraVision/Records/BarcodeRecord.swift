import Foundation
import KameraCore

/// A ``BarcodeObservation`` as JSON (`kamera detect`, `kamera scan`, later the web app), keys
/// in declaration order: normalized lower-left `boundingBox`, top-left `pixelCorners` in the
/// order topLeft, topRight, bottomRight, bottomLeft, and the top-left `pixelBox`.
public struct BarcodeRecord: Codable, Sendable, Equatable {
    public var symbology: String
    /// The payload as text; null for binary payloads (see `payloadBase64`).
    @Nullable public var payload: String?
    public var payloadBase64: String
    /// The EAN-2/EAN-5 add-on's digits, if the code has one.
    @Nullable public var supplementalPayload: String?
    public var boundingBox: RecordBox
    public var pixelCorners: [[Double]]
    public var pixelBox: RecordBox
    public var confidence: Double
    public var orientation: Int
    public var mirrored: Bool
    public var inverted: Bool
    public var symbologyIdentifier: String
    @Nullable public var errorCorrectionLevel: String?

    public init(_ o: BarcodeObservation) {
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
