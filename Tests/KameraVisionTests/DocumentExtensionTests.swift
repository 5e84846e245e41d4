import KameraCore
import KameraTestTiers
import Testing

@testable import KameraVision

/// How the document search merges what it found on several planes: an outline that is another
/// one carried on along the background is dropped, a page round a picture is not.
@Suite(.tier(.unit)) struct DocumentExtensionTests {
    let size = Size(width: 640, height: 480)

    func observation(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double, _ confidence: Float) -> RectangleObservation {
        RectangleObservation(
            pixelCorners: Quad(PixelRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)), imageSize: size,
            confidence: confidence)
    }

    let finder = RectangleFinder(
        minimumAspectRatio: 0, maximumAspectRatio: 1, quadratureTolerance: 30, minimumSize: 0, minimumConfidence: 0,
        maximumObservations: 0, prefersLarge: true)

    func merged(_ found: [RectangleObservation]) throws -> [RectangleObservation] {
        try finder.ranked(found, width: Int(size.width), height: Int(size.height))
    }

    func kept(_ found: [RectangleObservation]) throws -> [Float] { try merged(found).map(\.confidence) }

    @Test("A larger quad along the card's sides goes unless it is clearly better edged")
    func extensionOfACard() throws {
        let card = observation(100, 100, 300, 220, 0.70)
        // The card's top, bottom and left carried on to the right along the background's lines.
        #expect(try kept([observation(100, 100, 420, 220, 0.75), card]) == [0.70])
        // A tenth better edged than the card and more: its own object (the card lies on it).
        #expect(try kept([observation(100, 100, 420, 220, 0.80), card]) == [0.80, 0.70])
        // Corners and confidence come back as they went in.
        let back = try merged([card])
        #expect(back.first?.pixelCorners == card.pixelCorners)
    }

    @Test("A page round a picture, a quad elsewhere and one of the same size are kept")
    func notExtensions() throws {
        let picture = observation(150, 150, 300, 250, 0.90)
        // Margins all round: a page with a picture printed on it.
        #expect(try kept([observation(100, 100, 400, 400, 0.70), picture]) == [0.70, 0.90])
        // Side by side, not inside.
        #expect(try kept([observation(320, 150, 620, 400, 0.70), picture]) == [0.70, 0.90])
        // Less than a fifth larger: two readings of one object, both kept for the ranking, which
        // puts the better-edged first (size hardly differs).
        #expect(try kept([observation(150, 150, 315, 255, 0.70), picture]) == [0.90, 0.70])
        #expect(try kept([]).isEmpty)
    }
}
