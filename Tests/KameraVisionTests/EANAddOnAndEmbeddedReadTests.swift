import Foundation
import Kamera
import KameraTestMedia
import KameraTestTiers
import Testing

@testable import KameraVision

/// EAN/UPC reads made whole and kept honest: an add-on printed beside a number is read even
/// where zxing-cpp's scan lines miss it (`AddOnSearch`), and a UPC-E or EAN-8 cut out of a
/// longer symbol's bars is not reported (`EmbeddedSymbolCheck`).
@Suite(.tier(.unit)) struct EANAddOnAndEmbeddedReadTests {
    /// A UPC-A (with a 5-digit add-on when `addOn`), turned 10° and tilted, faint and a
    /// little blurred, on a real photo: the retail scenes' conditions.
    func turnedUPC(addOn: Bool) throws -> PixelBuffer {
        var composer = SceneComposer(background: try SampleMedia.photo("building.jpg").pixelBuffer, width: 1024, height: 768)
        let pose = CodePose(center: PixelPoint(x: 500, y: 380), width: 360, rotation: 10, tilt: 0.08)
        _ = try composer.place(.upca, payload: .text(addOn ? "03600029145+52495" : "03600029145"), pose: pose, moduleSize: 3)
        return composer.render(Degradation(blurSigma: 0.8, noiseSigma: 5, contrast: 0.7), seed: 5).converted(to: .gray8)
    }

    @Test func anAddOnTheScanLinesMissedIsFoundBesideTheNumber() throws {
        let gray = try turnedUPC(addOn: true)
        // zxing-cpp's own pass reads the number and misses the add-on here.
        let plain = try #require(try BarcodeReaderPass(formats: "UPC-A").read(gray).first)
        #expect(plain.payloadString?.hasSuffix("036000291452") == true && plain.supplementalPayloadString == nil)
        #expect(try AddOnSearch.addOn(for: plain, in: gray, pass: BarcodeReaderPass(formats: "")) == "52495")
        for effort in [DetectBarcodesRequest.Effort.balanced, .thorough] {
            let found = try DetectBarcodesRequest(effort: effort).perform(in: ImageAnalysisContext(Image(pixelBuffer: gray)))
            #expect(match(found, .upca, "036000291452")?.supplementalPayloadString == "52495", "\(effort)")
        }
    }

    @Test func noAddOnIsMadeUpWhereNoneIsPrinted() throws {
        let gray = try turnedUPC(addOn: false)
        let plain = try #require(try BarcodeReaderPass(formats: "UPC-A").read(gray).first)
        #expect(try AddOnSearch.addOn(for: plain, in: gray, pass: BarcodeReaderPass(formats: "")) == nil)
        let found = try DetectBarcodesRequest(effort: .thorough).perform(in: ImageAnalysisContext(Image(pixelBuffer: gray)))
        let code = try #require(match(found, .upca, "036000291452"))
        #expect(code.supplementalPayloadString == nil)
    }

    /// Edge-cut scene 166 of seed 602 (`bench/edgecut.sh`): a UPC-A label on a circuit board,
    /// its white ending about ten modules past the number. Read again for an add-on, the
    /// board's traces beyond the label's edge decoded as the EAN-2 "76" (two digits carry one
    /// parity check) and `thorough` reported 61622418548776. The paper beyond the number is
    /// not the label's: no add-on is taken. The printed add-on of the turned UPC-A lies on it.
    @Test func noAddOnIsReadOffTheLabel() throws {
        let scene = try EdgeCutScene.make(seed: 602 &* 100_000 &+ 50_000 &+ 166, background: try SampleMedia.photo("board.jpg").pixelBuffer)
        // As the benchmark stores it: a JPEG.
        let jpeg = try ImageEncoder.encode(scene.image, as: .jpeg(quality: scene.jpegQuality))
        let gray = try Image(data: jpeg).pixelBuffer.converted(to: .gray8)
        #expect(scene.number == "616224185487")
        let found = try DetectBarcodesRequest(effort: .thorough).perform(in: ImageAnalysisContext(Image(pixelBuffer: gray)))
        let code = try #require(match(found, .upca, "616224185487"))
        #expect(code.supplementalPayloadString == nil)

        let printed = try turnedUPC(addOn: true)
        let read = try #require(try BarcodeReaderPass(formats: "UPC-A").read(printed).first)
        let c = read.pixelCorners
        let start = PixelPoint(x: (c.topLeft.x + c.bottomLeft.x) / 2, y: (c.topLeft.y + c.bottomLeft.y) / 2)
        let end = PixelPoint(x: (c.topRight.x + c.bottomRight.x) / 2, y: (c.topRight.y + c.bottomRight.y) / 2)
        let length = start.distance(to: end), module = length / 95
        let unit = PixelPoint(x: (end.x - start.x) / length, y: (end.y - start.y) / length)
        let main = ScanLineProfile(printed, from: start, to: end, step: module / 3, across: 2)
        let beyond = AddOnSearch.linesBeyond(end, unit: unit, module: module, digits: 5, in: printed)
        #expect(AddOnSearch.isOnTheSamePaper(beyond, as: main, inverted: false))
    }

    @Test func aShortCodeCutOutOfAnEAN13IsRecognized() throws {
        let s = try scene(.ean13, index: 2, width: 400, background: "building.jpg")
        let gray = s.image.converted(to: .gray8)
        let found = try DetectBarcodesRequest(effort: .balanced).perform(in: ImageAnalysisContext(Image(pixelBuffer: gray)))
        let ean = try #require(match(found, .ean13, s.expected))
        #expect(!EmbeddedSymbolCheck.isEmbedded(ean, in: gray))  // not a short symbology
        // The first 51 of the EAN-13's 95 modules, on its own scan line, as a UPC-E read.
        let c = ean.pixelCorners
        func along(_ a: PixelPoint, _ b: PixelPoint, _ t: Double) -> PixelPoint { a + (b - a) * t }
        var cut = ean
        cut.symbology = .upce
        cut.pixelCorners = Quad(
            topLeft: c.topLeft, topRight: along(c.topLeft, c.topRight, 51.0 / 95),
            bottomRight: along(c.bottomLeft, c.bottomRight, 51.0 / 95),
            bottomLeft: c.bottomLeft)
        #expect(EmbeddedSymbolCheck.isEmbedded(cut, in: gray))
        // The last 51 modules too (bars before it instead of after).
        cut.pixelCorners = Quad(
            topLeft: along(c.topLeft, c.topRight, 44.0 / 95), topRight: c.topRight, bottomRight: c.bottomRight,
            bottomLeft: along(c.bottomLeft, c.bottomRight, 44.0 / 95))
        #expect(EmbeddedSymbolCheck.isEmbedded(cut, in: gray))
    }

    @Test(arguments: [0.0, 35, 160]) func aPrintedShortCodeIsKept(rotation: Double) throws {
        for symbology in [BarcodeSymbology.upce, .ean8] {
            let s = try scene(symbology, index: 1, rotation: rotation, width: 260, background: "building.jpg")
            let gray = s.image.converted(to: .gray8)
            let found = try DetectBarcodesRequest(effort: .balanced).perform(in: ImageAnalysisContext(Image(pixelBuffer: gray)))
            let code = try #require(found.first { $0.symbology == symbology }, "\(symbology) at \(rotation)°")
            #expect(!EmbeddedSymbolCheck.isEmbedded(code, in: gray), "\(symbology) at \(rotation)°")
        }
    }
}
