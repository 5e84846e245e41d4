import KameraCore
import KameraVision

/// The demo's photo scenes (`kamera-demo`), which tests read too.
public enum DemoScenes {
    /// Three scenes over real photos: codes rotated, tilted, inverted, blurred and noised;
    /// read with the thorough effort (the PDF417 at 12° is beyond zxing-cpp alone).
    public static func codes() throws -> [(image: PixelBuffer, codes: [(BarcodeSymbology, String)])] {
        let layouts: [(String, [(BarcodeSymbology, CodePose)], Degradation)] = [
            (
                "messi5.jpg",
                [
                    (.qr, CodePose(center: PixelPoint(x: 220, y: 220), width: 220, rotation: 18, tilt: 0.15)),
                    (.ean13, CodePose(center: PixelPoint(x: 640, y: 180), width: 320, rotation: -8)),
                    (.dataMatrix, CodePose(center: PixelPoint(x: 860, y: 470), width: 170, rotation: 200)),
                    (.code128, CodePose(center: PixelPoint(x: 420, y: 560), width: 420, rotation: 4, tilt: 0.1)),
                ], Degradation(blurSigma: 0.8, noiseSigma: 4)
            ),
            (
                "fruits.jpg",
                [
                    (.aztec, CodePose(center: PixelPoint(x: 250, y: 300), width: 200, rotation: 33)),
                    (.pdf417, CodePose(center: PixelPoint(x: 700, y: 250), width: 420, rotation: -12)),
                    (.qr, CodePose(center: PixelPoint(x: 760, y: 540), width: 200, rotation: 71, inverted: true)),
                ], Degradation(noiseSigma: 6, contrast: 0.7)
            ),
            (
                "building.jpg",
                [
                    (.upca, CodePose(center: PixelPoint(x: 300, y: 200), width: 340)),
                    (.itf14, CodePose(center: PixelPoint(x: 700, y: 420), width: 400, rotation: 6)),
                    (.microQR, CodePose(center: PixelPoint(x: 260, y: 520), width: 150, rotation: -25)),
                    (.gs1DataBarExpanded, CodePose(center: PixelPoint(x: 800, y: 150), width: 360, rotation: 10)),
                ], Degradation(blurSigma: 0.6, noiseSigma: 3)
            ),
        ]
        return try layouts.enumerated().map { index, layout in
            var composer = SceneComposer(background: try SampleMedia.photo(layout.0).pixelBuffer, width: 1024, height: 683)
            var codes: [(BarcodeSymbology, String)] = []
            for (k, (symbology, pose)) in layout.1.enumerated() {
                let sample = SamplePayload.make(symbology, index: index * 10 + k)
                try composer.place(symbology, payload: sample.input, pose: pose, moduleSize: 4)
                codes.append((symbology, sample.expectedText))
            }
            return (composer.render(layout.2, seed: UInt64(index + 1)), codes)
        }
    }
}
