import KameraCore
import KameraNN

/// Reads text, like Vision's `RecognizeTextRequest`: lines in reading order with their
/// words, on Tesseract 5 with preprocessing for photos (light-on-dark text, skew, small text),
/// or on PP-OCRv4 for text in the world (`engine`).
public struct RecognizeTextRequest: ImageRequest {
    /// Which reader runs (not in Vision, which has one).
    public enum Engine: String, Sendable, CaseIterable, Codable {
        /// Tesseract 5: pages and documents, 100+ languages, words and character boxes.
        case tesseract
        /// PP-OCRv4 (detector and recognizer on KameraNN): signs, labels, screens, text at any
        /// angle; English and Chinese; one observation per line, without word boxes.
        case scene
    }

    public enum RecognitionLevel: String, Sendable, CaseIterable, Codable {
        /// One Tesseract pass on the (polarity-corrected) image.
        case fast
        /// Also deskews and reads small text again enlarged.
        case accurate
    }

    public var recognitionLevel: RecognitionLevel
    /// Tesseract codes or BCP 47 tags, e.g. ["en-US"] or ["eng", "deu"].
    public var recognitionLanguages: [String]
    /// Lines lower than this fraction of the image height are dropped.
    public var minimumTextHeight: Float
    /// Use the language's word lists (dictionary correction).
    public var usesLanguageCorrection: Bool
    /// The part of the image to analyse (normalized, lower-left origin); results are relative
    /// to it, as in Vision. Default: the whole image.
    public var regionOfInterest = NormalizedRect.fullImage
    /// The reader (default Tesseract).
    public var engine = Engine.tesseract
    /// Where PP-OCR's models are read from.
    public var modelStore = ModelStore.default

    public init(
        recognitionLevel: RecognitionLevel = .accurate, recognitionLanguages: [String] = ["en-US"],
        minimumTextHeight: Float = 0, usesLanguageCorrection: Bool = true
    ) {
        self.recognitionLevel = recognitionLevel
        self.recognitionLanguages = recognitionLanguages
        self.minimumTextHeight = minimumTextHeight
        self.usesLanguageCorrection = usesLanguageCorrection
    }

    public func perform(in context: ImageAnalysisContext) throws -> [RecognizedTextObservation] {
        let context = try context.region(regionOfInterest)
        if engine == .scene {
            let size = context.image.size
            return try SceneTextReader(models: modelStore).lines(in: context.image.pixelBuffer).map { line in
                let box = PixelRect(enclosing: line.corners.corners)
                return RecognizedTextObservation(
                    boundingBox: box.normalized(in: size), pixelBox: box, words: [], pixelCorners: line.corners,
                    candidates: [RecognizedText(string: line.text, confidence: line.confidence)])
            }
        }
        let page = try TextRecognizer(
            accurate: recognitionLevel == .accurate, languages: recognitionLanguages,
            usesLanguageCorrection: usesLanguageCorrection,
            minimumTextHeight: Double(minimumTextHeight)
        ).recognize(context)
        let size = context.image.size
        return page.lines.map { line in
            let words = line.words.map { TextObservation(word: $0, in: size, characterBoxes: true) }
            return RecognizedTextObservation(
                boundingBox: line.box.normalized(in: size), pixelBox: line.box, words: words,
                pixelCorners: line.quad,
                candidates: [RecognizedText(string: line.text, confidence: line.confidence / 100)])
        }
    }
}

extension TextObservation {
    init(word: TesseractPage.Word, in size: Size, characterBoxes: Bool) {
        self.init(
            boundingBox: word.box.normalized(in: size), pixelBox: word.box, string: word.text,
            confidence: word.confidence / 100,
            characterBoxes: characterBoxes
                ? word.symbols.map {
                    CharacterBox(character: $0.text, pixelBox: $0.box, boundingBox: $0.box.normalized(in: size), pixelCorners: $0.quad)
                }
                : nil,
            words: [], pixelCorners: word.quad)
    }
}
