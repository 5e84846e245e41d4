import Foundation
import KameraCore

/// The JSON form of a ``BarcodeObservation`` that the CLI prints (and later the web app
/// serves): normalized lower-left `boundingBox`, top-left `pixelCorners` in the order
/// topLeft, topRight, bottomRight, bottomLeft.
public struct BarcodeRecord: Codable, Sendable, Equatable {
    public struct Box: Codable, Sendable, Equatable {
        public var x, y, width, height: Double
    }

    public var symbology: String
    public var payload: String?
    public var payloadBase64: String
    /// The EAN-2/EAN-5 add-on's digits, if the code has one.
    public var supplementalPayload: String?
    public var boundingBox: Box
    public var pixelBox: Box
    public var pixelCorners: [[Double]]
    public var orientation: Int
    public var mirrored: Bool
    public var inverted: Bool
    public var symbologyIdentifier: String
    public var errorCorrectionLevel: String?
    public var confidence: Float

    public init(_ o: BarcodeObservation) {
        func round(_ v: Double, _ digits: Double = 10_000) -> Double { (v * digits).rounded() / digits }
        let box = o.boundingBox, pixels = o.pixelBounds
        symbology = o.symbology.rawValue
        payload = o.payloadString
        payloadBase64 = o.payloadData.base64EncodedString()
        supplementalPayload = o.supplementalPayloadString
        boundingBox = Box(x: round(box.x), y: round(box.y), width: round(box.width), height: round(box.height))
        pixelBox = Box(x: round(pixels.x, 10), y: round(pixels.y, 10), width: round(pixels.width, 10), height: round(pixels.height, 10))
        pixelCorners = o.pixelCorners.corners.map { [round($0.x, 10), round($0.y, 10)] }
        orientation = o.orientation
        mirrored = o.isMirrored
        inverted = o.isInverted
        symbologyIdentifier = o.symbologyIdentifier
        errorCorrectionLevel = o.errorCorrectionLevel
        confidence = o.confidence
    }
}
