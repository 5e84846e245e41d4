import Foundation
import Kamera
import KameraTestMedia
import KameraTestTiers
import Testing

@testable import KameraRender

@Suite(.tier(.unit)) struct BarcodeOverlayTests {
    @Test func drawsOvalPolygonAndLabel() async throws {
        var composer = SceneComposer(background: try SampleMedia.photo("messi5.jpg").pixelBuffer, width: 640, height: 480)
        let sample = SamplePayload.make(.qr, index: 1)
        let truth = try composer.place(
            .qr, payload: sample.input, pose: CodePose(center: PixelPoint(x: 320, y: 200), width: 200, rotation: 30))
        let image = composer.render()
        let observations = try await DetectBarcodesRequest().perform(on: image)
        try #require(observations.count == 1)
        var canvas = Canvas(image)
        BarcodeOverlay().draw(observations, on: &canvas, font: try FontFace.standard())
        let out = canvas.buffer

        // Inside the symbol: the half-transparent green fill tints every pixel green.
        let center = truth.symbolQuad.center
        let before = image.pixel(x: Int(center.x), y: Int(center.y)), after = out.pixel(x: Int(center.x), y: Int(center.y))
        #expect(Int(after[1]) > Int(after[0]) + 40 && after != before)
        // The yellow oval passes outside the symbol: search the row through the centre.
        let row = Int(center.y)
        let yellow = (0..<out.width).filter { x in
            let p = out.pixel(x: x, y: row)
            return p[0] > 200 && p[1] > 180 && p[2] < 80
        }
        #expect(yellow.contains { Double($0) < truth.symbolQuad.boundingRect.minX })
        #expect(yellow.contains { Double($0) > truth.symbolQuad.boundingRect.maxX })
        // The label: a dark box with white text below the code.
        let labelRows = (Int(truth.symbolQuad.boundingRect.maxY)..<out.height)
        let white = labelRows.contains { y in (0..<out.width).contains { x in out.pixel(x: x, y: y) == [255, 255, 255] } }
        #expect(white)
        #expect(BarcodeOverlay.labelText(observations[0], limit: 48) == "qr: \(sample.expectedText)")
    }

    @Test func labelsAreCleanedAndShortened() {
        let long = BarcodeObservation(
            symbology: .code128, payloadString: "line1\nline2" + String(repeating: "x", count: 100),
            payloadData: Data(), pixelCorners: Quad(PixelRect(x: 0, y: 0, width: 1, height: 1)),
            imageSize: Size(width: 10, height: 10))
        let text = BarcodeOverlay.labelText(long, limit: 20)
        #expect(!text.contains("\n") && text.hasSuffix("…") && text.count == "code128: ".count + 20)
        var binary = long
        binary.payloadString = nil
        binary.payloadData = Data([1, 2, 3])
        #expect(BarcodeOverlay.labelText(binary, limit: 20) == "code128: 3 bytes")
    }

    @Test func flatLinearQuadsStillGetVisibleMarks() {
        // A code read on one scan line has a zero-height quad.
        let flat = BarcodeObservation(
            symbology: .ean13, payloadString: "4006381333931", payloadData: Data("4006381333931".utf8),
            pixelCorners: Quad(
                topLeft: PixelPoint(x: 20, y: 50), topRight: PixelPoint(x: 180, y: 50),
                bottomRight: PixelPoint(x: 180, y: 50), bottomLeft: PixelPoint(x: 20, y: 50)),
            imageSize: Size(width: 200, height: 100))
        var canvas = Canvas(PixelBuffer(width: 200, height: 100, format: .rgb8))
        BarcodeOverlay().draw([flat], on: &canvas, font: nil)
        let tinted = canvas.buffer.bytes.enumerated().filter { $0.offset % 3 == 1 && $0.element > 50 }.count
        #expect(tinted > 160 * 4)
    }
}
