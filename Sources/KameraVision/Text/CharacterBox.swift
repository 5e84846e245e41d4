import KameraCore

/// One character's box, as Vision's `characterBoxes` gives them.
public struct CharacterBox: Sendable, Hashable {
    public var character: String
    /// Pixels, top-left origin.
    public var pixelBox: PixelRect
    /// Normalized, lower-left origin.
    public var boundingBox: NormalizedRect
    /// The character's corners in pixels, following the text's slant.
    public var pixelCorners: Quad

    public init(character: String, pixelBox: PixelRect, boundingBox: NormalizedRect, pixelCorners: Quad? = nil) {
        self.character = character
        self.pixelBox = pixelBox
        self.boundingBox = boundingBox
        self.pixelCorners = pixelCorners ?? Quad(pixelBox)
    }
}
