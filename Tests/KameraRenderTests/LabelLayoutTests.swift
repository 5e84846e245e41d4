import Kamera
import KameraTestMedia
import KameraTestTiers
import Testing

@testable import KameraRender

@Suite(.tier(.unit)) struct LabelLayoutTests {
    @Test("Labels asking for the same spot are all placed inside the canvas and off each other")
    func labelsDoNotOverlap() {
        var layout = LabelLayout(canvasSize: Size(width: 320, height: 240))
        let wanted = PixelPoint(x: 250, y: 225)  // near the bottom-right corner: would be clipped
        let boxes = (0..<6).map { _ in layout.place(width: 120, height: 20, preferred: [wanted]) }
        for (i, box) in boxes.enumerated() {
            #expect(box.minX >= 0 && box.minY >= 0 && box.maxX <= 320 && box.maxY <= 240, "\(box)")
            for other in boxes[(i + 1)...] { #expect(box.intersection(other) == nil, "\(box) overlaps \(other)") }
        }
        // The first takes the preferred spot, moved just enough to be whole.
        #expect(boxes[0] == PixelRect(x: 200, y: 220, width: 120, height: 20))
    }

    @Test("A long message shrinks, then is shortened with an ellipsis, to fit the frame")
    func longLabelsFit() throws {
        let font = try FontFace.standard()
        let short = font.fitting("qr: hi", size: 24, maximumWidth: 300)
        #expect(short.text == "qr: hi" && short.size == 24)
        let long = String(repeating: "https://kamera.dev/a/long/path/", count: 3)
        let fitted = font.fitting(long, size: 24, maximumWidth: 150)
        #expect(fitted.bitmap.width <= 150)
        #expect(fitted.size >= 8 && fitted.size < 24)
        #expect(fitted.text.hasSuffix("…") && fitted.text.count < long.count)
    }

    @Test("Two codes side by side on a small frame get two whole labels")
    func overlayLabelsOnACrowdedFrame() async throws {
        var composer = SceneComposer(background: try SampleMedia.photo("building.jpg").pixelBuffer, width: 360, height: 200)
        try composer.place(
            .qr, payload: .text("left code with a long message"), pose: CodePose(center: PixelPoint(x: 100, y: 90), width: 110))
        try composer.place(
            .qr, payload: .text("right code with a long message"), pose: CodePose(center: PixelPoint(x: 250, y: 90), width: 110))
        let image = composer.render()
        let codes = try await DetectBarcodesRequest().perform(on: Image(pixelBuffer: image))
        #expect(codes.count == 2)
        var canvas = Canvas(image)
        var layout = LabelLayout(canvasSize: image.size)
        BarcodeOverlay().draw(codes, on: &canvas, font: try FontFace.standard(), layout: &layout)
        #expect(layout.placed.count == 2)
        let (a, b) = (layout.placed[0], layout.placed[1])
        #expect(a.intersection(b) == nil)
        for box in layout.placed { #expect(box.minX >= 0 && box.maxX <= 360 && box.minY >= 0 && box.maxY <= 200) }
    }
}
