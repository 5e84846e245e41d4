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

    public init(boundingBox: NormalizedRect, pixelBox: PixelRect, string: String, confidence: Float,
                characterBoxes: [CharacterBox]?, words: [TextObservation], pixelCorners: Quad? = nil) {
        self.pixelCorners = pixelCorners ?? Quad(pixelBox)
        self.boundingBox = boundingBox
        self.pixelBox = pixelBox
        self.string = string
        self.confidence = confidence
        self.characterBoxes = characterBoxes
        self.words = words
    }
}

/// A text candidate with its confidence.
public struct RecognizedText: Sendable, Hashable {
    public var string: String
    /// 0…1.
    public var confidence: Float
}

/// A recognized line of text (Vision's `RecognizedTextObservation`), in reading order.
public struct RecognizedTextObservation: Sendable, Hashable {
    public var boundingBox: NormalizedRect
    public var pixelBox: PixelRect
    /// The line's words with their boxes, confidences and character boxes.
    public var words: [TextObservation]
    /// The line's corners in pixels, following the text's slant.
    public var pixelCorners: Quad
    /// Readings of the line, best first (one per preprocessing that read it differently).
    public var candidates: [RecognizedText]

    /// Up to `maxCandidateCount` readings, best first.
    public func topCandidates(_ maxCandidateCount: Int) -> [RecognizedText] {
        Array(candidates.prefix(max(0, maxCandidateCount)))
    }

    /// The best reading.
    public var string: String { candidates.first?.string ?? "" }

    /// The line as a text region (best reading, its words with their character boxes).
    public var textObservation: TextObservation {
        TextObservation(boundingBox: boundingBox, pixelBox: pixelBox, string: string, confidence: confidence,
                        characterBoxes: nil, words: words, pixelCorners: pixelCorners)
    }
    public var confidence: Float { candidates.first?.confidence ?? 0 }
}
