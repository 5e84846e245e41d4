import Foundation
import Kamera
import KameraTestMedia
import KameraTestTiers
import Testing

@testable import KameraVision

/// EAN-2 and EAN-5 add-ons (magazines' issue numbers, books' prices): read at every effort,
/// reported apart from the main number as Vision's supplemental payload.
@Suite(.tier(.unit)) struct EANAddOnTests {
    /// (symbology, what the generator is given, the main number as reported, the add-on)
    static let cases: [(BarcodeSymbology, String, String, String)] = [
        (.ean13, "9780201379624+51595", "9780201379624", "51595"),  // a book with its price
        (.ean13, "9771234567003+07", "9771234567003", "07"),  // a periodical's issue
        (.upca, "036000291452+12345", "036000291452", "12345"),
        (.upce, "01234565+52", "01234565", "52"),
    ]

    @Test(arguments: DetectBarcodesRequest.Effort.allCases)
    func pureSymbolsWithAddOns(effort: DetectBarcodesRequest.Effort) async throws {
        for (symbology, text, main, addOn) in Self.cases {
            let image = try BarcodeGenerator(symbology: symbology, moduleSize: 3).generate(.text(text))
            let found = try await DetectBarcodesRequest(effort: effort).perform(on: image)
            #expect(found.count == 1, "\(text): \(found.map { "\($0.payloadString ?? "") +\($0.supplementalPayloadString ?? "-")" })")
            let code = try #require(found.first)
            #expect(code.symbology == symbology && code.payloadString == main, "\(text) → \(code.payloadString ?? "nil")")
            #expect(code.payloadData == Data(main.utf8))
            #expect(code.supplementalPayloadString == addOn && code.supplementalPayloadData == Data(addOn.utf8), "\(text)")
            // The reported corners span the main symbol and its add-on.
            #expect(code.pixelBounds.width > Double(image.width) * 0.7, "\(text): \(code.pixelBounds)")
        }
    }

    @Test func addOnsInAPhotographedScene() async throws {
        for (index, (symbology, text, main, addOn)) in Self.cases.enumerated() {
            let s = try scene(
                symbology, index: index, rotation: 6, tilt: 0.05, width: 460, payload: .text(text),
                background: "building.jpg", damage: Degradation(blurSigma: 0.6, noiseSigma: 4, contrast: 0.8))
            let found = try await DetectBarcodesRequest().perform(on: s.image)
            let code = try #require(match(found, symbology, main), "\(text): \(found.map { $0.payloadString ?? "" })")
            #expect(code.supplementalPayloadString == addOn, "\(text)")
        }
    }

    @Test func codesWithoutAnAddOnHaveNone() async throws {
        let image = try BarcodeGenerator(symbology: .ean13, moduleSize: 3).generate(.text("9780201379624"))
        let code = try #require(try await DetectBarcodesRequest().perform(on: image).first)
        #expect(code.payloadString == "9780201379624")
        #expect(code.supplementalPayloadString == nil && code.supplementalPayloadData == nil)
    }
}

/// Conflicting add-on readings of one printed code: the clearly better-supported one, or none.
@Suite(.tier(.unit)) struct AddOnConflictTests {
    func reading(_ addOn: String?, x: Double = 100) -> BarcodeObservation {
        let corners = Quad(PixelRect(x: x, y: 100, width: 300, height: 120))
        return BarcodeObservation(
            symbology: .ean13, payloadString: "9784934477541", payloadData: Data("9784934477541".utf8), pixelCorners: corners,
            imageSize: Size(width: 1024, height: 768), supplementalPayloadString: addOn)
    }

    @Test("An add-on is reported only as part of the number zxing-cpp settled on, with two or five digits")
    func addOnsOutsideTheNumberAreDropped() {
        typealias Reader = BarcodeReaderPass
        #expect(Reader.splittingAddOn(text: "978458074681759702", addOn: "59702") == ("9784580746817", "59702"))
        #expect(Reader.splittingAddOn(text: "977123456700307", addOn: "07") == ("9771234567003", "07"))
        #expect(Reader.splittingAddOn(text: "9780201379624 51595", addOn: "51595") == ("9780201379624", "51595"))
        // Only in the add-on field (a lone scan line's misread, bench photo addon_004): the number alone.
        #expect(Reader.splittingAddOn(text: "9784580746817", addOn: "79707") == ("9784580746817", nil))
        // Clipped to 3 or 4 digits: stripped from the number, not reported.
        #expect(Reader.splittingAddOn(text: "97845807468175970", addOn: "5970") == ("9784580746817", nil))
        #expect(Reader.splittingAddOn(text: "9780201379624", addOn: "") == ("9780201379624", nil))
    }

    @Test func conflictsResolveByScanLines() {
        typealias Reader = BarcodeReaderPass
        // 74 lines against 36: the majority is kept, one observation.
        let clear = Reader.resolvingAddOnConflicts([reading("42786"), reading("42789"), reading(nil)], lineCounts: [36, 74, 20])
        #expect(clear.map(\.supplementalPayloadString) == ["42789"])
        // 39 against 31: neither is sure, the number alone is reported.
        let close = Reader.resolvingAddOnConflicts([reading("06915"), reading("06911")], lineCounts: [39, 31])
        #expect(close.count == 1 && close[0].supplementalPayloadString == nil && close[0].payloadString == "9784934477541")
        // One add-on reading plus readings without it: the add-on stands.
        #expect(
            Reader.resolvingAddOnConflicts([reading(nil), reading("56297")], lineCounts: [10, 40]).map(\.supplementalPayloadString) == [
                "56297"
            ])
        // Two identical codes in different places are two codes.
        #expect(Reader.resolvingAddOnConflicts([reading("11"), reading("22", x: 600)], lineCounts: [5, 5]).count == 2)
    }
}
