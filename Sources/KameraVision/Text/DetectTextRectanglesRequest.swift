import KameraCore

/// Finds text regions, like Vision's `DetectTextRectanglesRequest`: one observation per line
/// with its words, and each character's box when `reportCharacterBoxes` is set. The lines
/// carry what was read in them (Vision's carry no text).
public struct DetectTextRectanglesRequest: ImageRequest {
    public var reportCharacterBoxes: Bool
    /// Tesseract codes or BCP 47 tags of the scripts to expect.
    public var languages: [String]
    /// The part of the image to analyse (normalized, lower-left origin); results are relative
    /// to it, as in Vision. Default: the whole image.
    public var regionOfInterest = NormalizedRect.fullImage
    /// Which finder runs (not in Vision): automatic (the default) finds lines with PP-OCRv4's
    /// detector for the languages it reads, as `RecognizeTextRequest` does; `tesseract`
    /// runs Tesseract's layout pass.
    public var engine = RecognizeTextRequest.Engine.automatic
    /// Whether the scene detector enlarges an image whose shorter side is under 736 pixels
    /// (finds smaller text; a live stream keeps its frames' size, for pace).
    var enlargesSmallImages = true
    /// A stream's memory of lines read, so unchanged lines are not read again (live only).
    var lineMemory: SceneLineMemory?

    public init(reportCharacterBoxes: Bool = false, languages: [String] = ["en-US"]) {
        self.reportCharacterBoxes = reportCharacterBoxes
        self.languages = languages
    }

    public func perform(in context: ImageAnalysisContext) throws -> [TextObservation] {
        var reader = RecognizeTextRequest(recognitionLanguages: languages)
        reader.engine = engine
        if engine == .scene || (engine == .automatic && reader.sceneReadsLanguages) {
            reader.regionOfInterest = regionOfInterest
            reader.engine = .scene
            return try reader.sceneLines(
                in: try context.region(regionOfInterest), candidates: 1, enlargesSmallImages: enlargesSmallImages, memory: lineMemory
            )
            .map { $0.textObservation(lineCharacterBoxes: reportCharacterBoxes) }
            .map { line in
                guard !reportCharacterBoxes else { return line }
                var plain = line
                plain.words = line.words.map { word in
                    var bare = word
                    bare.characterBoxes = nil
                    return bare
                }
                return plain
            }
        }
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
