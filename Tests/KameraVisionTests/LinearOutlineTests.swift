import Foundation
import Kamera
import KameraTestMedia
import KameraTestTiers
import Testing

/// A linear code's corners follow the symbol: clockwise, top edge on top for an upright code.
/// zxing-cpp builds the outline from the first and last scan lines that read the code and, when
/// it met the lower one first, reports an upright EAN-13 upside down (its top-left corner at
/// the bottom); Kamera puts it right.
@Suite(.tier(.unit)) struct LinearOutlineTests {
    @Test(arguments: [DetectBarcodesRequest.Effort.balanced, .thorough])
    func outlinesRunClockwise(effort: DetectBarcodesRequest.Effort) async throws {
        var checked = 0
        for scene in try DemoScenes.codes() {
            // Through JPEG, as the demo writes its scenes.
            let image = try Image(data: try ImageEncoder.encode(scene.image, as: .jpeg(quality: 90)))
            for code in try await DetectBarcodesRequest(effort: effort).perform(on: image) where !code.symbology.isTwoDimensional {
                #expect(code.pixelCorners.signedArea > 0, "\(code.symbology) \(code.pixelCorners.corners)")
                if code.orientation == 0 {
                    #expect(code.pixelCorners.topLeft.y <= code.pixelCorners.bottomLeft.y, "\(code.symbology) \(code.pixelCorners.corners)")
                }
                checked += 1
            }
        }
        #expect(checked >= 5)
        let upright = Quad(PixelRect(x: 10, y: 20, width: 100, height: 40))
        #expect(upright.signedArea > 0 && upright.flippedVertically.signedArea < 0)
        #expect(upright.flippedVertically.flippedVertically == upright)
    }
}
