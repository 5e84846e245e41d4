import Foundation
import KameraVision

/// A valid payload for a symbology and the text a reader returns for it.
public struct SamplePayload: Sendable, Hashable {
    public var input: BarcodeGenerator.Payload
    /// What a reader reports (GS1 codes come back with their application identifiers in
    /// parentheses, check digits added).
    public var expectedText: String

    /// A deterministic, valid payload for `symbology`; `index` varies the content.
    public static func make(_ symbology: BarcodeSymbology, index: Int = 0) -> SamplePayload {
        var random = SeededRandom(seed: UInt64(index) &* 7919 &+ symbology.rawValue.utf8.reduce(UInt64(0)) { $0 &* 31 &+ UInt64($1) } &+ 17)
        func digits(_ n: Int, firstNonZero: Bool = false) -> String {
            String(
                (0..<n).map { i in
                    Character(String(Int.random(in: (i == 0 && firstNonZero ? 1 : 0)...9, using: &random)))
                })
        }
        func same(_ text: String) -> SamplePayload { SamplePayload(input: .text(text), expectedText: text) }
        let words = ["Kamera", "Vision", "Linux", "Swift", "camera", "scan", "frame", "photo"]
        let word = words[index % words.count]
        switch symbology {
        case .qr: return same(index % 2 == 0 ? "https://example.org/\(word.lowercased())/\(index)" : "\(word) ünïcödé ✓ №\(index)")
        case .microQR: return same("\(word.uppercased().prefix(5))\(index % 100)")
        case .rmQR: return same("RMQR \(word.uppercased()) \(index)")
        case .aztec: return same("Aztec \(word) \(index) ÄÖÜ")
        case .dataMatrix: return same("DM-\(word)-\(digits(6))")
        case .pdf417: return same("PDF417 \(word) payload \(index) \(digits(8))")
        case .microPDF417: return same("MPDF \(word.uppercased()) \(index)")
        case .maxiCode: return same("MAXICODE \(word.uppercased()) \(digits(6))")
        case .ean8: return same(withCheckDigit(digits(7)))
        case .ean13: return same(withCheckDigit(digits(12, firstNonZero: true)))
        case .upca: return same(withCheckDigit(digits(11)))
        case .upce:
            // Number system 0, manufacturer without trailing zero, product 0000N (N ≥ 5).
            let manufacturer = digits(4, firstNonZero: true) + String(Int.random(in: 1...9, using: &random))
            let last = String(Int.random(in: 5...9, using: &random))
            let upca = withCheckDigit("0" + manufacturer + "0000" + last)
            return same("0" + manufacturer + last + String(upca.last!))
        case .code39: return same("\(word.uppercased())-\(digits(4))")
        case .code93: return same("\(word.uppercased()) \(digits(4))")
        case .code128: return same("\(word) #\(digits(5))!")
        case .itf: return same(digits(10))
        case .itf14: return same(withCheckDigit(digits(13)))
        case .codabar: return same("A\(digits(8))B")
        case .gs1DataBar:
            let gtin = digits(13)
            return SamplePayload(input: .text(gtin), expectedText: "(01)" + withCheckDigit(gtin))
        case .gs1DataBarLimited:
            let gtin = "0" + digits(12)
            return SamplePayload(input: .text(gtin), expectedText: "(01)" + withCheckDigit(gtin))
        case .gs1DataBarExpanded:
            let gtin = withCheckDigit(digits(13))
            let batch = "B\(digits(5))"
            return SamplePayload(input: .text("[01]\(gtin)[10]\(batch)"), expectedText: "(01)\(gtin)(10)\(batch)")
        case .telepen: return same("TP \(word) \(index)")
        case .dxFilmEdge: return same("")
        }
    }

    /// `body` with its GS1 (mod 10, weights 3-1 from the right) check digit appended.
    public static func withCheckDigit(_ body: String) -> String {
        var sum = 0
        for (i, ch) in body.reversed().enumerated() { sum += (ch.wholeNumberValue ?? 0) * (i % 2 == 0 ? 3 : 1) }
        return body + String((10 - sum % 10) % 10)
    }
}
