import Foundation
import Kamera
import KameraTestMedia
import KameraTestTiers
import Testing

@testable import KameraVision

/// EAN/UPC codes at the photo's edge, as on a book cover or a package that fills the frame: a
/// code whose guard bars touch the edge is read (the rows that confirm its number see paper
/// beyond the edge, not the edge pixel repeated).
@Suite(.tier(.unit)) struct EdgeCutCodeTests {
    /// An EAN-13 on a real photo, slightly blurred, with the photo cut square to the code
    /// `modules` outside the end of its bars (0: the guard bar touches the edge), at the left
    /// end or the right.
    func cutCode(modules: Double, leftEnd: Bool) throws -> PixelBuffer {
        var composer = SceneComposer(background: try SampleMedia.photo("building.jpg").pixelBuffer, width: 800, height: 600)
        let pose = CodePose(center: PixelPoint(x: 400, y: 300), width: 113 * 3, rotation: 0)
        let placed = try composer.place(.ean13, payload: .text("590123412345"), pose: pose, moduleSize: 3)
        let image = composer.render(Degradation(blurSigma: 0.6, noiseSigma: 2, contrast: 0.8), seed: 3)
        let q = placed.symbolQuad
        let module = (q.topRight.x - q.topLeft.x) / 95
        let cut = leftEnd ? (q.topLeft.x - modules * module).rounded() : (q.topRight.x + modules * module).rounded()
        let keep =
            leftEnd
            ? PixelRect(x: cut, y: 0, width: Double(image.width) - cut, height: Double(image.height))
            : PixelRect(x: 0, y: 0, width: cut, height: Double(image.height))
        return image.cropped(to: keep).converted(to: .gray8)
    }

    @Test(arguments: [(0.0, true), (0.0, false), (1.0, true), (1.0, false)])
    func aCodeWhoseGuardTouchesTheEdgeIsRead(modules: Double, leftEnd: Bool) throws {
        let gray = try cutCode(modules: modules, leftEnd: leftEnd)
        // zxing-cpp's own pass reads it (a symbol at a row's start needs no quiet zone)…
        let raw = try #require(try BarcodeReaderPass(formats: "EAN-13").read(gray).first)
        #expect(raw.payloadString == "5901234123457")
        // …and the rows that confirm the number agree.
        #expect(try GTINConfirmation.confirms(raw, in: gray))
        for effort in [DetectBarcodesRequest.Effort.fast, .balanced, .thorough] {
            let found = try DetectBarcodesRequest(effort: effort).perform(in: ImageAnalysisContext(Image(pixelBuffer: gray)))
            #expect(
                found.map(\.payloadString) == ["5901234123457"],
                "\(effort), cut \(modules) modules out at the \(leftEnd ? "left" : "right")")
        }
    }

    @Test func aGuardCutInHalfIsNotReadAsAnotherNumber() throws {
        // Two modules into the symbol: the guard is gone; nothing, or the right number.
        let gray = try cutCode(modules: -2, leftEnd: true)
        let found = try DetectBarcodesRequest(effort: .thorough).perform(in: ImageAnalysisContext(Image(pixelBuffer: gray)))
        #expect(found.allSatisfy { $0.payloadString == "5901234123457" }, "\(found.map(\.payloadString))")
    }
}
