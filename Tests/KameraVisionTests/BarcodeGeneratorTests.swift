import Foundation
import Kamera
import KameraTestTiers
import Testing

@testable import KameraVision

@Suite(.tier(.unit)) struct BarcodeGeneratorTests {
    @Test func qrErrorCorrectionGrowsTheSymbol() throws {
        let text = "Error correction trades capacity for robustness: 0123456789"
        let low = try BarcodeGenerator(symbology: .qr, errorCorrection: .low).modules(for: .text(text))
        let high = try BarcodeGenerator(symbology: .qr, errorCorrection: .high).modules(for: .text(text))
        #expect(high.width > low.width)
        // Versions are 17 + 4n modules.
        #expect((low.width - 17) % 4 == 0 && (high.width - 17) % 4 == 0)
    }

    @Test func moduleSizeAndQuietZone() throws {
        let matrix = try BarcodeGenerator(symbology: .qr).modules(for: .text("size"))
        let image = try BarcodeGenerator(symbology: .qr, moduleSize: 5, quietZone: 3).generate(text: "size")
        #expect(image.width == (matrix.width + 6) * 5 && image.height == image.width)
        // The quiet zone is light, the finder pattern's corner dark.
        #expect(image.pixel(x: 14, y: 14) == [255])
        #expect(image.pixel(x: 15, y: 15) == [0])
        let standard = try BarcodeGenerator(symbology: .qr, moduleSize: 1).generate(text: "size")
        #expect(standard.width == matrix.width + 8)
        let tall = try BarcodeGenerator(symbology: .code128, moduleSize: 2, barHeight: 40).render(.text("ABC"))
        #expect(tall.image.format == .gray8 && tall.symbolRect.minX == 20)
    }

    @Test func invalidRequestsAreTypedErrors() {
        #expect(throws: KameraError.self) { try BarcodeGenerator(symbology: .ean13).generate(text: "not digits") }
        #expect(throws: KameraError.self) { try BarcodeGenerator(symbology: .qr).generate(text: "") }
        #expect(throws: KameraError.self) { try BarcodeGenerator(symbology: .qr, moduleSize: 0).generate(text: "x") }
        #expect(throws: KameraError.self) { try BarcodeGenerator(symbology: .dxFilmEdge).generate(text: "1") }
        #expect(throws: KameraError.self) { try BarcodeGenerator(symbology: .aztec, errorCorrection: .high).generate(text: "x") }
        #expect(throws: KameraError.self) { try BarcodeGenerator(symbology: .qr).generate(.text(String(repeating: "x", count: 8000))) }
    }

    @Test func symbologyNamesParse() throws {
        #expect(try BarcodeSymbology.parseList("qr, Aztec,datamatrix,EAN13") == [.qr, .aztec, .dataMatrix, .ean13])
        #expect(try BarcodeSymbology.parseList("all").count == BarcodeSymbology.allCases.count)
        #expect(throws: KameraError.self) { try BarcodeSymbology.parseList("qr,nope") }
        #expect(BarcodeSymbology.generatable.contains(.pdf417) && !BarcodeSymbology.generatable.contains(.dxFilmEdge))
    }
}
