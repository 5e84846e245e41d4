import Foundation
import Kamera
import KameraTestMedia
import KameraTestTiers
import Testing

@testable import KameraVision

/// A QR code printed inside another (a product's code pasted on a poster's): the inner one,
/// which is what such a photo is of, is read. (zxing-cpp then finds the inner code's finder
/// patterns and does not read the outer one; the outer alone reads.)
@Suite(.tier(.unit)) struct NestedCodeTests {
    @Test(arguments: [DetectBarcodesRequest.Effort.balanced, .thorough]) func theInnerOfTwoNestedQRCodesIsRead(
        effort: DetectBarcodesRequest.Effort
    ) throws {
        var composer = SceneComposer(background: try SampleMedia.photo("home.jpg").pixelBuffer, width: 1024, height: 768)
        _ = try composer.place(
            .qr, payload: .text("https://example.org/poster/outer"),
            pose: CodePose(center: PixelPoint(x: 512, y: 384), width: 600, rotation: 4),
            moduleSize: 6)
        _ = try composer.place(
            .qr, payload: .text("INNER-4711"), pose: CodePose(center: PixelPoint(x: 560, y: 430), width: 100, rotation: 4), moduleSize: 2)
        let image = composer.render(Degradation(blurSigma: 0.4, noiseSigma: 3), seed: 9)
        let found = try DetectBarcodesRequest(effort: effort).perform(in: ImageAnalysisContext(Image(pixelBuffer: image)))
        let inner = try #require(found.first { $0.payloadString == "INNER-4711" }, "\(found.map(\.payloadString))")
        // Its outline is the small code's, not the poster's.
        #expect(inner.pixelBounds.width < 160 && inner.pixelBounds.x > 440 && inner.pixelBounds.x < 560)
        #expect(!found.contains { $0.payloadString != "INNER-4711" && $0.payloadString != "https://example.org/poster/outer" })
    }
}
