import Foundation
import KameraCore
import KameraNN

/// Reads text, like Vision's `RecognizeTextRequest`: lines in reading order with their
/// words, on Tesseract 5 with preprocessing for photos (light-on-dark text, skew, small text),
/// or on PP-OCRv4 for text in the world (`engine`).
public struct RecognizeTextRequest: ImageRequest {
    /// Which reader runs (not in Vision, which has one).
    public enum Engine: String, Sendable, CaseIterable, Codable {
        /// Chosen per image (the default): the scene reader for the languages it reads
        /// (English, Chinese; measured better on pages and signs alike: bench/README.md),
        /// Tesseract for the others, and Tesseract at full resolution for a large scan in
        /// which the scene detector, working on it shrunk, found no text.
        case automatic
        /// Tesseract 5: pages and documents, 100+ languages, words and character boxes.
        case tesseract
        /// PP-OCRv4 (detector and recognizer on KameraNN): signs, labels, screens, text at any
        /// angle; English and Chinese; words and characters with their boxes.
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
    /// Use the language's word lists (dictionary correction), and `customWords`.
    public var usesLanguageCorrection: Bool
    /// Words to prefer (names, product codes), as Vision's: a reading within an edit of one
    /// (two for words of 8+ characters) becomes it when the image supports it nearly as
    /// well. Used by the scene reader when `usesLanguageCorrection` is on.
    public var customWords: [String] = []
    /// Read whatever script the text is in rather than only `recognitionLanguages`' (the
    /// scene reader then reads Chinese and Latin alike).
    public var automaticallyDetectsLanguage = false
    /// The part of the image to analyse (normalized, lower-left origin); results are relative
    /// to it, as in Vision. Default: the whole image.
    public var regionOfInterest = NormalizedRect.fullImage
    /// The reader (default: chosen per image).
    public var engine = Engine.automatic
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
        switch engine {
        case .scene: return try sceneLines(in: context)
        case .automatic where sceneReadsLanguages:
            let lines = try sceneLines(in: context)
            let size = context.image.size
            guard lines.isEmpty, max(size.width, size.height) > Double(SceneTextDetector.maximumSide) else { return lines }
        case .automatic, .tesseract: break
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

extension RecognizeTextRequest {
    /// Whether the scene reader reads every language asked for (English and Chinese), or
    /// whatever script it meets when detecting the language automatically.
    public var sceneReadsLanguages: Bool {
        automaticallyDetectsLanguage
            || recognitionLanguages.allSatisfy { ["eng", "chi_sim", "chi_tra"].contains(TextLanguages.tesseractCode($0)) }
    }

    /// The scene reader's script for the languages asked for: Latin only when every one is
    /// English (so a blurred "e" is not read as a Chinese character), otherwise all.
    var sceneScript: CTCDecoder.Script {
        let english = recognitionLanguages.allSatisfy { TextLanguages.tesseractCode($0) == "eng" }
        return english && !automaticallyDetectsLanguage ? .latin : .all
    }

    /// Lines from PP-OCRv4 with their words, characters and candidates.
    func sceneLines(
        in context: ImageAnalysisContext, candidates: Int = 3, enlargesSmallImages: Bool = true, memory: SceneLineMemory? = nil
    ) throws -> [RecognizedTextObservation] {
        let size = context.image.size
        var options = SceneTextReader.Options(
            script: sceneScript, candidates: candidates, customWords: usesLanguageCorrection ? customWords : [])
        options.enlargesSmallImages = enlargesSmallImages
        options.memory = memory
        let lines = try SceneTextReader(models: modelStore).lines(in: context.image.pixelBuffer, options: options)
        // Lines lower than minimumTextHeight of the image (their height across the text).
        let minimum = Double(minimumTextHeight) * size.height
        return lines.filter { hypot($0.frame.down.x, $0.frame.down.y) >= minimum }.map { line in
            let box = PixelRect(enclosing: line.corners.corners)
            let words = line.words().map { word in
                let wordBox = PixelRect(enclosing: word.corners.corners)
                return TextObservation(
                    boundingBox: wordBox.normalized(in: size), pixelBox: wordBox, string: word.text, confidence: word.confidence,
                    characterBoxes: word.characters.map { character, corners in
                        let characterBox = PixelRect(enclosing: corners.corners)
                        return CharacterBox(
                            character: character, pixelBox: characterBox, boundingBox: characterBox.normalized(in: size),
                            pixelCorners: corners)
                    }, words: [], pixelCorners: word.corners)
            }
            return RecognizedTextObservation(
                boundingBox: box.normalized(in: size), pixelBox: box, words: words, pixelCorners: line.corners,
                candidates: line.readings.map { RecognizedText(string: $0.text, confidence: $0.confidence) })
        }
    }
}
