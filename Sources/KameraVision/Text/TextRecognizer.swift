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
        var toSource = PerspectiveTransform.identity
        if accurate {
            let skew = TextPreprocessor.skewAngle(gray)
            if abs(skew) >= 0.5 {
                let turned = gray.rotated(byDegrees: -skew, fill: 255)
                prepared = turned.buffer
                toSource = turned.toSource
            }
        }
        var page = try TesseractEnginePool.shared.withEngine(key) { try $0.recognize(prepared) }
        var scale = 1.0
        if accurate {
            // Tesseract's LSTM wants an x-height of 20–30 px: small text is read again enlarged
            // (the 13 px lines of opencv-doc's imageTextR lose whole lines otherwise).
            // Line heights, not word heights: words without ascenders would exaggerate the scale.
            let heights = page.lines.map(\.box.height).sorted()
            let median = heights.isEmpty ? 0 : heights[heights.count / 2]
            if median > 0, median < 24 {
                let factor = min(4, 32 / median)
                let enlarged = prepared.resized(width: Int(Double(prepared.width) * factor), height: Int(Double(prepared.height) * factor))
                let second = try TesseractEnginePool.shared.withEngine(key) { try $0.recognize(enlarged) }
                if second.confidentCharacters >= page.confidentCharacters {
                    page = second
                    prepared = enlarged
                    scale = factor
                }
            }
            // Text on a photo or in uneven light: Tesseract's global threshold fails there, so
            // read again with the background flattened. Only a clearly better reading wins: on
            // clean pages both read alike and the unflattened one keeps thin strokes intact.
            let words = page.lines.flatMap(\.words).map(\.box.height).sorted()
            let textHeight = words.isEmpty ? 30 : words[words.count / 2]
            let flattened = TextPreprocessor.flattenedBackground(prepared, window: Int(max(15, textHeight * 1.2)))
            let second = try TesseractEnginePool.shared.withEngine(key) { try $0.recognize(flattened) }
            // Tesseract's layout analysis drops a different line or two in each reading; the
            // lines only the other reading found are added.
            page =
                second.confidentCharacters > page.confidentCharacters * 1.15
                ? second.adding(linesMissingFrom: page)
                : page.adding(linesMissingFrom: second)
        }
        if scale != 1 { page = page.scaled(by: 1 / scale) }
        // Lines Tesseract is this unsure of, or with hardly a letter, are texture read as text.
        if accurate {
            page.lines = page.lines.filter { line in
                line.confidence >= 50 && line.text.unicodeScalars.filter(CharacterSet.alphanumerics.contains).count >= 2
            }
        }
        let mapped = page.inReadingOrder().mapped(by: toSource)
        let minimumHeight = minimumTextHeight * Double(context.image.height)
        return TesseractPage(lines: mapped.lines.filter { $0.box.height >= minimumHeight })
    }
}

extension TesseractPage {
    /// This page plus the lines of `other` (same coordinates) that overlap none of its own.
    func adding(linesMissingFrom other: TesseractPage) -> TesseractPage {
        var merged = lines
        for line in other.lines where line.confidence >= 50 {
            let overlapsExisting = lines.contains { existing in
                (existing.box.intersection(line.box)?.area ?? 0) > 0.3 * min(existing.box.area, line.box.area)
            }
            if !overlapsExisting { merged.append(line) }
        }
        return TesseractPage(lines: merged)
    }

    /// Lines top to bottom within each column. Tesseract orders by layout blocks, and on
    /// busy photos it splits one column into blocks in the wrong order; lines that share
    /// most of their width are in one column, so the upper one comes first.
    func inReadingOrder() -> TesseractPage {
        var ordered = lines
        func sameColumn(_ a: PixelRect, _ b: PixelRect) -> Bool {
            let overlap = min(a.maxX, b.maxX) - max(a.minX, b.minX)
            return overlap > 0.5 * min(a.width, b.width)
        }
        var swapped = true
        var passes = 0
        while swapped && passes < ordered.count {
            swapped = false
            passes += 1
            for i in 0..<max(0, ordered.count - 1) {
                let a = ordered[i].box, b = ordered[i + 1].box
                if sameColumn(a, b) && b.maxY <= a.minY + b.height * 0.5 {
                    ordered.swapAt(i, i + 1)
                    swapped = true
                }
            }
        }
        return TesseractPage(lines: ordered)
    }

    /// How much text was read with confidence: characters weighted by their word's
    /// confidence, words under 50 % ignored. A few confident junk words score low, a page
    /// read well scores high.
    var confidentCharacters: Float {
        lines.flatMap(\.words).filter { $0.confidence >= 50 }.reduce(0) { $0 + Float($1.text.count) * $1.confidence / 100 }
    }

    func scaled(by factor: Double) -> TesseractPage {
        mapped(by: .scaling(factor))
    }

    /// Every box moved through `transform`: corners mapped, bounds recomputed.
    func mapped(by transform: PerspectiveTransform) -> TesseractPage {
        func map(_ q: Quad) -> Quad {
            Quad(
                topLeft: transform.apply(q.topLeft), topRight: transform.apply(q.topRight),
                bottomRight: transform.apply(q.bottomRight), bottomLeft: transform.apply(q.bottomLeft))
        }
        return TesseractPage(
            lines: lines.map { line in
                let lineQuad = map(line.quad)
                return Line(
                    text: line.text, box: lineQuad.boundingRect, confidence: line.confidence,
                    words: line.words.map { word in
                        let wordQuad = map(word.quad)
                        return Word(
                            text: word.text, box: wordQuad.boundingRect, confidence: word.confidence,
                            symbols: word.symbols.map { symbol in
                                let symbolQuad = map(symbol.quad)
                                return Symbol(
                                    text: symbol.text, box: symbolQuad.boundingRect, confidence: symbol.confidence, quad: symbolQuad)
                            }, quad: wordQuad)
                    }, quad: lineQuad)
            })
    }
}
