import KameraCore

/// Finds text regions, like Vision's `DetectTextRectanglesRequest`: one observation per line
/// with its words, and each character's box when `reportCharacterBoxes` is set.
public struct DetectTextRectanglesRequest: ImageRequest {
    public var reportCharacterBoxes: Bool
    /// Tesseract codes or BCP 47 tags of the scripts to expect.
    public var languages: [String]
    /// The part of the image to analyse (normalized, lower-left origin); results are relative
    /// to it, as in Vision. Default: the whole image.
    public var regionOfInterest = NormalizedRect.fullImage

    public init(reportCharacterBoxes: Bool = false, languages: [String] = ["en-US"]) {
        self.reportCharacterBoxes = reportCharacterBoxes
        self.languages = languages
    }

    public func perform(in context: ImageAnalysisContext) throws -> [TextObservation] {
        let context = try context.region(regionOfInterest)
        let page = try TextRecognizer(
            accurate: true, languages: languages, usesLanguageCorrection: true,
            minimumTextHeight: 0
        ).recognize(context)
        let size = context.image.size
        return page.lines.map { line in
            let words = line.words.map { TextObservation(word: $0, in: size, characterBoxes: reportCharacterBoxes) }
            return TextObservation(
                boundingBox: line.box.normalized(in: size), pixelBox: line.box, string: line.text,
                confidence: line.confidence / 100,
                characterBoxes: reportCharacterBoxes ? words.flatMap { $0.characterBoxes ?? [] } : nil,
                words: words, pixelCorners: line.quad)
        }
    }
}
