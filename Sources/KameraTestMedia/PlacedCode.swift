import KameraCore
import KameraVision

/// Ground truth for one code drawn into a synthetic scene.
public struct PlacedCode: Sendable, Hashable {
    public var symbology: BarcodeSymbology
    /// The payload as generated.
    public var payload: BarcodeGenerator.Payload
    /// Where the symbol itself (quiet zone excluded) lies in the scene, in pixels.
    public var symbolQuad: Quad
    /// The symbol was drawn mirrored.
    public var mirrored: Bool
    /// The symbol was drawn light on dark.
    public var inverted: Bool

    public init(symbology: BarcodeSymbology, payload: BarcodeGenerator.Payload, symbolQuad: Quad, mirrored: Bool, inverted: Bool) {
        self.symbology = symbology
        self.payload = payload
        self.symbolQuad = symbolQuad
        self.mirrored = mirrored
        self.inverted = inverted
    }

    /// The payload bytes.
    public var payloadData: [UInt8] {
        switch payload {
        case .text(let text): Array(text.utf8)
        case .bytes(let data): Array(data)
        }
    }
}
