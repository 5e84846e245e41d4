import Foundation
import KameraCore

/// The pipeline behind the text requests: preprocessing, Tesseract, and mapping the result
/// back to the original image.
struct TextRecognizer: Sendable {
    var accurate: Bool
    var languages: [String]
    var usesLanguageCorrection: Bool
    var minimumTextHeight: Double

    /// Lines (with words and characters) in the original image's pixel coordinates.
    func recognize(_ context: ImageAnalysisContext) throws -> TesseractPage {
        let key = TesseractEngine.Key(languages: languages.map(TextLanguages.tesseractCode), usesLanguageCorrection: usesLanguageCorrection)
        var gray = context.grayscale
        if TextPreprocessor.isLightOnDark(gray) { gray = gray.inverted() }
        var prepared = gray
        var toSource = PerspectiveTransform(matrix: [1, 0, 0, 0, 1, 0, 0, 0, 1])
        if accurate {
            let skew = TextPreprocessor.skewAngle(gray)
            if abs(skew) >= 0.5 {
                let turned = gray.rotated(byDegrees: -skew, fill: 255)
                prepared = turned.buffer
                toSource = turned.toSource
            }
        }
        var page = try TesseractEnginePool.shared.withEngine(key) { try $0.recognize(prepared) }
        if accurate {
            // Tesseract's LSTM wants an x-height of 20–30 px: small text it was unsure of is read
            // again enlarged.
            let heights = page.lines.flatMap(\.words).map(\.box.height).sorted()
            let median = heights.isEmpty ? 0 : heights[heights.count / 2]
            if median > 0, median < 22, page.meanConfidence < 85 {
                let scale = min(4, 32 / median)
                let enlarged = prepared.resized(width: Int(Double(prepared.width) * scale), height: Int(Double(prepared.height) * scale))
                let second = try TesseractEnginePool.shared.withEngine(key) { try $0.recognize(enlarged) }
                if second.meanConfidence >= page.meanConfidence {
                    page = second.scaled(by: 1 / scale)
                }
            }
        }
        let mapped = page.mapped(by: toSource)
        let minimumHeight = minimumTextHeight * Double(context.image.height)
        return TesseractPage(lines: mapped.lines.filter { $0.box.height >= minimumHeight })
    }
}

extension TesseractPage {
    var meanConfidence: Float {
        let words = lines.flatMap(\.words)
        guard !words.isEmpty else { return 0 }
        // Weighted by length: many short junk words should not beat long real ones.
        let weight = words.reduce(0) { $0 + Float($1.text.count) }
        return words.reduce(0) { $0 + $1.confidence * Float($1.text.count) } / max(1, weight)
    }

    func scaled(by factor: Double) -> TesseractPage {
        mapped(by: PerspectiveTransform(matrix: [factor, 0, 0, 0, factor, 0, 0, 0, 1]))
    }

    /// Every box moved through `transform` (the bounds of its mapped corners).
    func mapped(by transform: PerspectiveTransform) -> TesseractPage {
        func map(_ r: PixelRect) -> PixelRect {
            PixelRect(enclosing: Quad(r).corners.map(transform.apply))
        }
        return TesseractPage(lines: lines.map { line in
            Line(text: line.text, box: map(line.box), confidence: line.confidence, words: line.words.map { word in
                Word(text: word.text, box: map(word.box), confidence: word.confidence,
                     symbols: word.symbols.map { Symbol(text: $0.text, box: map($0.box), confidence: $0.confidence) })
            })
        })
    }
}
