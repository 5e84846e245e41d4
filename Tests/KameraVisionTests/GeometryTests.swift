import KameraTestTiers
import Testing

@testable import KameraCore

@Suite(.tier(.unit)) struct GeometryTests {
    let size = Size(width: 200, height: 100)

    @Test func normalizedRectUsesLowerLeftOrigin() {
        // A 20×10 box whose top-left pixel corner is (40, 10): its bottom edge is at y = 20,
        // which is 0.8 of the height from the bottom.
        let pixel = PixelRect(x: 40, y: 10, width: 20, height: 10)
        let normalized = pixel.normalized(in: size)
        #expect(normalized == NormalizedRect(x: 0.2, y: 0.8, width: 0.1, height: 0.1))
        let back = normalized.toImageCoordinates(size)
        #expect(abs(back.x - 40) < 1e-9 && abs(back.y - 10) < 1e-9 && abs(back.width - 20) < 1e-9 && abs(back.height - 10) < 1e-9)
    }

    @Test func normalizedPointRoundTrip() {
        let p = PixelPoint(x: 150, y: 25)
        let n = p.normalized(in: size)
        #expect(n == NormalizedPoint(x: 0.75, y: 0.75))
        #expect(n.toImageCoordinates(size) == p)
    }

    @Test func expandedAndUnion() {
        let a = PixelRect(x: 10, y: 20, width: 30, height: 40)
        #expect(a.expanded(dx: 5, dy: 2) == PixelRect(x: 5, y: 18, width: 40, height: 44))
        #expect(a.expanded(dx: -5, dy: 0) == PixelRect(x: 15, y: 20, width: 20, height: 40))
        #expect(a.union(PixelRect(x: 0, y: 50, width: 5, height: 30)) == PixelRect(x: 0, y: 20, width: 40, height: 60))
        #expect(a.union(a) == a)
        #expect(PixelBuffer(width: 7, height: 3, format: .gray8).bounds == PixelRect(x: 0, y: 0, width: 7, height: 3))
    }

    @Test func intersectionOverUnion() {
        let a = PixelRect(x: 0, y: 0, width: 10, height: 10)
        let b = PixelRect(x: 5, y: 0, width: 10, height: 10)
        #expect(abs(a.intersectionOverUnion(b) - 50.0 / 150.0) < 1e-12)
        #expect(a.intersectionOverUnion(PixelRect(x: 20, y: 20, width: 1, height: 1)) == 0)
    }

    @Test func quadContainsAndBounds() {
        let diamond = Quad(
            topLeft: PixelPoint(x: 5, y: 0), topRight: PixelPoint(x: 10, y: 5),
            bottomRight: PixelPoint(x: 5, y: 10), bottomLeft: PixelPoint(x: 0, y: 5))
        #expect(diamond.contains(PixelPoint(x: 5, y: 5)))
        #expect(!diamond.contains(PixelPoint(x: 1, y: 1)))
        #expect(diamond.boundingRect == PixelRect(x: 0, y: 0, width: 10, height: 10))
        #expect(diamond.center == PixelPoint(x: 5, y: 5))
    }

    @Test func perspectiveTransformMapsCornersAndInverts() throws {
        let from = [PixelPoint(x: 0, y: 0), PixelPoint(x: 100, y: 0), PixelPoint(x: 100, y: 50), PixelPoint(x: 0, y: 50)]
        let to = [PixelPoint(x: 10, y: 20), PixelPoint(x: 90, y: 5), PixelPoint(x: 120, y: 80), PixelPoint(x: 0, y: 70)]
        let t = try #require(PerspectiveTransform(from: from, to: to))
        for (a, b) in zip(from, to) { #expect(t.apply(a).distance(to: b) < 1e-9) }
        let inverse = try #require(t.inverse)
        for (a, b) in zip(from, to) { #expect(inverse.apply(b).distance(to: a) < 1e-9) }
        // Collinear points have no homography.
        #expect(
            PerspectiveTransform(
                from: from, to: [PixelPoint(x: 0, y: 0), PixelPoint(x: 1, y: 1), PixelPoint(x: 2, y: 2), PixelPoint(x: 3, y: 3)]) == nil)
    }
}
