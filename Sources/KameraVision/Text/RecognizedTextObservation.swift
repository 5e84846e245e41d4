import KameraCore

/// A recognized line of text (Vision's `RecognizedTextObservation`), in reading order.
public struct RecognizedTextObservation: Sendable, Hashable {
    public var boundingBox: NormalizedRect
    public var pixelBox: PixelRect
    /// The line's words with their boxes, confidences and character boxes.
    public var words: [TextObservation]
    /// The line's corners in pixels, following the text's slant.
    public var pixelCorners: Quad
    /// Readings of the line, best first (Tesseract: one per preprocessing that read it
    /// differently; the scene reader: its beam search's, up to three).
    public var candidates: [RecognizedText]

    /// Up to `maxCandidateCount` readings, best first.
    public func topCandidates(_ maxCandidateCount: Int) -> [RecognizedText] {
        Array(candidates.prefix(max(0, maxCandidateCount)))
    }

    /// The best reading.
    public var string: String { candidates.first?.string ?? "" }

    /// The line as a text region (best reading, its words with their character boxes).
    public var textObservation: TextObservation { textObservation(lineCharacterBoxes: false) }

    /// The line as a text region; with `lineCharacterBoxes`, the line also lists its words'
    /// characters, as `DetectTextRectanglesRequest(reportCharacterBoxes: true)` does.
    public func textObservation(lineCharacterBoxes: Bool) -> TextObservation {
        let characters = words.flatMap { $0.characterBoxes ?? [] }
        return TextObservation(
            boundingBox: boundingBox, pixelBox: pixelBox, string: string, confidence: confidence,
            characterBoxes: lineCharacterBoxes && !characters.isEmpty ? characters : nil, words: words, pixelCorners: pixelCorners)
    }
    public var confidence: Float { candidates.first?.confidence ?? 0 }
}
