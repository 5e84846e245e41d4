import KameraCore

/// A region of text: a line with its words, or a word (Vision's `TextObservation`).
public struct TextObservation: Sendable, Hashable {
    /// Normalized, lower-left origin.
    public var boundingBox: NormalizedRect
    /// Pixels, top-left origin.
    public var pixelBox: PixelRect
    /// The text read in the region.
    public var string: String
    /// 0…1.
    public var confidence: Float
    /// The characters' boxes, when the request asked for them.
    public var characterBoxes: [CharacterBox]?
    /// For a line, its words; empty for a word.
    public var words: [TextObservation]
    /// The region's corners in pixels, following the text's slant (skewed text has a tilted
    /// quad inside its axis-aligned `pixelBox`).
    public var pixelCorners: Quad

    public init(
        boundingBox: NormalizedRect, pixelBox: PixelRect, string: String, confidence: Float,
        characterBoxes: [CharacterBox]?, words: [TextObservation], pixelCorners: Quad? = nil
    ) {
        self.pixelCorners = pixelCorners ?? Quad(pixelBox)
        self.boundingBox = boundingBox
        self.pixelBox = pixelBox
        self.string = string
        self.confidence = confidence
        self.characterBoxes = characterBoxes
        self.words = words
    }
}
