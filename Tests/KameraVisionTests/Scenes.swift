import Foundation
import Kamera
import KameraTestMedia

/// Builds a 640×480 scene over a real photo with one code and returns it with its truth.
func scene(
    _ symbology: BarcodeSymbology, index: Int = 0, rotation: Double = 0, tilt: Double = 0,
    inverted: Bool = false, mirrored: Bool = false, width: Double? = nil, payload: BarcodeGenerator.Payload? = nil,
    background: String = "messi5.jpg", damage: Degradation = .none
) throws -> (image: PixelBuffer, truth: PlacedCode, expected: String) {
    var composer = SceneComposer(background: try SampleMedia.photo(background).pixelBuffer, width: 640, height: 480)
    let sample = SamplePayload.make(symbology, index: index)
    let pose = CodePose(
        center: PixelPoint(x: 320, y: 240), width: width ?? (symbology.isTwoDimensional ? 260 : 420),
        rotation: rotation, tilt: tilt, mirrored: mirrored, inverted: inverted)
    let truth = try composer.place(symbology, payload: payload ?? sample.input, pose: pose, moduleSize: 4)
    return (composer.render(damage, seed: UInt64(index + 11)), truth, sample.expectedText)
}

/// The observation of `symbology` saying `text`, if any.
func match(_ observations: [BarcodeObservation], _ symbology: BarcodeSymbology, _ text: String) -> BarcodeObservation? {
    observations.first { $0.symbology == symbology && $0.payloadString == text }
}

/// Largest distance from any observed corner to the nearest true symbol corner.
func cornerError(_ observation: BarcodeObservation, _ truth: PlacedCode) -> Double {
    observation.pixelCorners.corners.map { corner in truth.symbolQuad.corners.map { $0.distance(to: corner) }.min()! }.max()!
}
