import Foundation
import Kamera
import KameraTestTiers
import Testing

/// `DetectContoursRequest`: a tree of outlines with normalized points, and polygon simplification.
@Suite(.tier(.unit)) struct ContourDetectionTests {
    /// A light image with a dark square frame (a ring: outer and inner outline) and a dark
    /// disc inside it.
    static func target() -> PixelBuffer {
        var image = PixelBuffer(width: 400, height: 300, format: .gray8, filledWith: [235])
        for y in 0..<300 {
            for x in 0..<400 {
                let inSquare = (100..<300).contains(x) && (50..<250).contains(y)
                let inHole = (120..<280).contains(x) && (70..<230).contains(y)
                let inDisc = hypot(Double(x) - 200, Double(y) - 150) < 40
                if (inSquare && !inHole) || inDisc { image.bytes[y * 400 + x] = 20 }
            }
        }
        return image
    }

    @Test("A ring with a disc inside: nested outlines, in normalized lower-left coordinates")
    func tree() async throws {
        let observation = try await DetectContoursRequest().perform(on: Self.target())
        #expect(observation.topLevelContourCount == 1)
        let ring = try #require(observation.topLevelContours.first)
        #expect(ring.indexPath == [0])
        // Its points span the square: x 0.25…0.75, y 1 − (50…250)/300.
        let xs = ring.normalizedPoints.map(\.x), ys = ring.normalizedPoints.map(\.y)
        #expect(abs(xs.min()! - 0.25) < 0.01 && abs(xs.max()! - 0.75) < 0.01)
        #expect(abs(ys.min()! - (1 - 250.0 / 300)) < 0.01 && abs(ys.max()! - (1 - 50.0 / 300)) < 0.01)
        #expect(abs(ring.aspectRatio - 1) < 0.03)
        // Inside the ring: its hole, and inside the hole the disc.
        #expect(observation.contourCount >= 3)
        let hole = try #require(ring.childContours.first)
        #expect(hole.indexPath == [0, 0])
        let disc = try #require(hole.childContours.first)
        #expect(observation.contour(at: [0, 0, 0]) == disc)
        let discXs = disc.normalizedPoints.map(\.x)
        #expect(abs((discXs.max()! - discXs.min()!) * 400 - 80) < 4)
        // The ring simplifies to its four corners; the disc to many more.
        #expect(try ring.polygonApproximation(epsilon: 0.01).pointCount == 4)
        #expect(try disc.polygonApproximation(epsilon: 0.002).pointCount > 8)
        #expect(throws: KameraError.self) { try ring.polygonApproximation(epsilon: -1) }
    }

    @Test("Light on dark: the same shapes inverted; invalid parameters throw")
    func polarityAndParameters() async throws {
        var inverted = Self.target()
        for i in inverted.bytes.indices { inverted.bytes[i] = 255 - inverted.bytes[i] }
        var request = DetectContoursRequest()
        request.detectsDarkOnLight = false
        let observation = try await request.perform(on: inverted)
        #expect(observation.topLevelContourCount == 1 && observation.contourCount >= 3)
        for change in [
            { (r: inout DetectContoursRequest) in r.contrastAdjustment = 5 }, { $0.contrastPivot = 2 }, { $0.maximumImageDimension = 8 },
        ] {
            var bad = DetectContoursRequest()
            change(&bad)
            await #expect {
                _ = try await bad.perform(on: inverted)
            } throws: { ($0 as? KameraError)?.code == .invalidArgument }
        }
        // One colour: no contours.
        #expect(
            try await DetectContoursRequest().perform(on: PixelBuffer(width: 64, height: 64, format: .gray8, filledWith: [128]))
                .contourCount == 0)
    }
}
