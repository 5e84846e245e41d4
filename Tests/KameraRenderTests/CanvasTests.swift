import Foundation
import Kamera
import KameraTestTiers
import Testing

@testable import KameraRender

@Suite(.tier(.unit)) struct CanvasTests {
    func blank(_ w: Int = 60, _ h: Int = 40) -> Canvas { Canvas(PixelBuffer(width: w, height: h, format: .rgb8)) }

    @Test func filledSquareCoversItsExactArea() {
        var canvas = blank()
        // A 10.5 × 7.25 rectangle at fractional coordinates.
        canvas.fill(rect: PixelRect(x: 5.25, y: 3.5, width: 10.5, height: 7.25), color: .white)
        let coverage = canvas.buffer.bytes.enumerated().filter { $0.offset % 3 == 0 }.reduce(0.0) { $0 + Double($1.element) / 255 }
        #expect(abs(coverage - 10.5 * 7.25) < 0.6)
        // Interior is solid, edges are partial (anti-aliased), outside untouched.
        #expect(canvas.buffer.pixel(x: 10, y: 6) == [255, 255, 255])
        let edge = canvas.buffer.pixel(x: 5, y: 6)[0]
        #expect(edge > 100 && edge < 255)
        #expect(canvas.buffer.pixel(x: 30, y: 30) == [0, 0, 0])
    }

    @Test func overlappingStrokeSegmentsDoNotCancel() {
        var canvas = blank()
        // A closed triangle: segments and joins overlap at every corner.
        canvas.stroke(
            [PixelPoint(x: 10, y: 10), PixelPoint(x: 50, y: 10), PixelPoint(x: 30, y: 35)], closed: true, lineWidth: 4, color: .red)
        for corner in [(10, 10), (50, 10), (30, 35), (30, 10)] {
            #expect(canvas.buffer.pixel(x: corner.0, y: corner.1) == [255, 0, 0], "\(corner)")
        }
        #expect(canvas.buffer.pixel(x: 30, y: 20) == [0, 0, 0])
    }

    @Test func halfTransparentFillBlends() {
        var canvas = Canvas(PixelBuffer(width: 10, height: 10, format: .rgb8, filledWith: [0, 0, 200]))
        canvas.fill(rect: PixelRect(x: 0, y: 0, width: 10, height: 10), color: Color.green.withOpacity(0.5))
        let p = canvas.buffer.pixel(x: 5, y: 5)
        #expect(p == [0, 100, 100])
    }

    @Test func shapesBeyondTheEdgesAreClipped() {
        var canvas = blank(20, 20)
        canvas.stroke(ellipseIn: PixelRect(x: -30, y: -30, width: 100, height: 100), lineWidth: 3, color: .yellow)
        canvas.fill(polygon: [PixelPoint(x: -100, y: -100), PixelPoint(x: 500, y: 0), PixelPoint(x: 0, y: 500)], color: .blue)
        #expect(canvas.buffer.pixel(x: 0, y: 0) == [0, 120, 255])
        canvas.fill(polygon: [PixelPoint(x: .nan, y: 0), PixelPoint(x: 1, y: .infinity), PixelPoint(x: 2, y: 2)], color: .red)
    }

    @Test func grayAndBGRABuffersGetColour() {
        var gray = Canvas(PixelBuffer(width: 8, height: 8, format: .gray8))
        gray.fill(rect: PixelRect(x: 0, y: 0, width: 8, height: 8), color: .red)
        #expect(gray.buffer.format == .rgb8 && gray.buffer.pixel(x: 3, y: 3) == [255, 0, 0])
        var bgra = Canvas(PixelBuffer(width: 8, height: 8, format: .bgra8))
        bgra.fill(rect: PixelRect(x: 0, y: 0, width: 8, height: 8), color: .red)
        #expect(bgra.buffer.pixel(x: 3, y: 3) == [0, 0, 255, 255])
    }

    @Test func textRendersWithTheDebianFont() throws {
        let font = try FontFace.standard()
        let short = font.render("Hi", pixelSize: 20), long = font.render("Hello, Kamera", pixelSize: 20)
        #expect(long.width > short.width * 3 && short.height >= 18)
        #expect(short.coverage.contains(255))
        var canvas = blank(200, 40)
        canvas.draw(text: "Kamera ÄÖÜ ✓", at: PixelPoint(x: 4, y: 4), size: 24, color: .white, font: font)
        let lit = canvas.buffer.bytes.filter { $0 > 128 }.count
        #expect(lit > 300)
        #expect(throws: KameraError.self) { try FontFace(path: "/nonexistent/font.ttf") }
    }
}

@Suite(.tier(.unit)) struct TextOverlayTests {
    @Test func drawsWordAndCharacterBoxes() {
        let character = CharacterBox(
            character: "K", pixelBox: PixelRect(x: 20, y: 20, width: 10, height: 20),
            boundingBox: NormalizedRect(x: 0.2, y: 0.6, width: 0.1, height: 0.2))
        let word = TextObservation(
            boundingBox: NormalizedRect(x: 0.2, y: 0.6, width: 0.5, height: 0.2),
            pixelBox: PixelRect(x: 20, y: 20, width: 50, height: 20), string: "Kamera", confidence: 0.9,
            characterBoxes: [character], words: [])
        let line = TextObservation(
            boundingBox: word.boundingBox, pixelBox: word.pixelBox, string: "Kamera", confidence: 0.9,
            characterBoxes: nil, words: [word])
        var canvas = Canvas(PixelBuffer(width: 100, height: 100, format: .rgb8, filledWith: [255, 255, 255]))
        TextOverlay().draw([line], on: &canvas)
        // The word box's top edge is blue; the character box's right edge is drawn inside it.
        let top = canvas.buffer.pixel(x: 45, y: 20)
        #expect(top[2] > 200 && top[0] < 100)
        #expect(canvas.buffer.pixel(x: 30, y: 30) != [255, 255, 255])
        #expect(canvas.buffer.pixel(x: 50, y: 30) == [255, 255, 255])
    }
}
