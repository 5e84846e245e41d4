import Foundation
import KameraCore
import KameraTestMedia
import KameraTestTiers
import Testing

@testable import KameraVision

/// PP-OCRv4's detector through KameraNN on real photos with a sign pasted in perspective
/// (KameraTestMedia's document scenes: "EXIT 24" on a coloured panel, turned up to 35°).
@Suite("Scene text detection (PP-OCRv4 DB)", .tier(.models))
struct SceneTextDetectorTests {
    @Test("The sign's lettering is found, along its slant", arguments: [(UInt64(3), "building.jpg"), (7, "board.jpg"), (11, "messi5.jpg")])
    func signs(seed: UInt64, background: String) throws {
        let scene = try DocumentScene.make(kind: .sign, background: background, seed: seed, width: 960, height: 720)
        let sign = try #require(scene.corners)
        let lines = try SceneTextDetector(models: .default).lines(in: scene.image)
        // A line inside the sign, running along it: its top edge turned as the sign's is.
        let signAngle = atan2(sign.topRight.y - sign.topLeft.y, sign.topRight.x - sign.topLeft.x)
        func center(_ quad: Quad) -> PixelPoint {
            let corners = quad.corners
            return PixelPoint(x: corners.map(\.x).reduce(0, +) / 4, y: corners.map(\.y).reduce(0, +) / 4)
        }
        let inside = lines.filter { sign.contains(center($0.corners)) }
        let line = try #require(inside.first, "no line on the sign among \(lines.count)")
        let lineAngle = atan2(line.corners.topRight.y - line.corners.topLeft.y, line.corners.topRight.x - line.corners.topLeft.x)
        #expect(abs(lineAngle - signAngle) < 0.15, "line at \(lineAngle), sign at \(signAngle)")
        #expect(line.score > 0.6)
    }
}
