import Foundation
import KameraCore
import KameraVision

/// A retail code as a phone sees packaging it is not quite focused on: one EAN-13, UPC-A or
/// EAN-8 on a real photo, 1.6–4 px modules, turned (mostly near an axis) and tilted, blurred by
/// 0.2–0.75 of a module, at 20–60 % contrast, noised. Most such codes cannot be read at all; of
/// those read, a few come out as a different valid number — what a till must never report.
public enum RetailScene {
    /// The scene for `seed` over `background` (640×480) and the number printed in it.
    /// - Throws: the generator's errors.
    public static func make(seed: UInt64, background: PixelBuffer) throws -> (
        image: PixelBuffer, symbology: BarcodeSymbology, number: String, jpegQuality: Int
    ) {
        var random = SeededRandom(seed: seed)
        var composer = SceneComposer(background: background, width: 640, height: 480)
        let (symbology, number) = randomNumber(using: &random)
        let modules = symbology == .ean8 ? 81.0 : 113.0
        let module = Double.random(in: 1.6...4.0, using: &random)
        let nearAxis = Int.random(in: 0..<10, using: &random) < 7
        let rotation =
            nearAxis
            ? Double([0, 0, 90, 180, 270].randomElement(using: &random)!) + Double.random(in: -10...10, using: &random)
            : Double.random(in: 0..<360, using: &random)
        let pose = CodePose(
            center: PixelPoint(x: 320 + Double.random(in: -60...60, using: &random), y: 240 + Double.random(in: -40...40, using: &random)),
            width: min(modules * module, 440), rotation: rotation, tilt: Double.random(in: 0...0.2, using: &random))
        try composer.place(symbology, payload: .text(number), pose: pose, moduleSize: 3)
        let damage = Degradation(
            blurSigma: module * Double.random(in: 0.2...0.75, using: &random),
            noiseSigma: Double.random(in: 1...6, using: &random),
            contrast: Double.random(in: 0.2...0.6, using: &random))
        let quality = Int.random(in: 50...90, using: &random)
        return (composer.render(damage, seed: seed), symbology, number, quality)
    }

    /// A random retail number with its check digit: EAN-13 (not starting with 0, which would
    /// be a UPC-A) three times in five, UPC-A one in four, EAN-8 the rest.
    public static func randomNumber(using random: inout SeededRandom) -> (BarcodeSymbology, String) {
        func digits(_ count: Int) -> String { (0..<count).map { _ in String(Int.random(in: 0...9, using: &random)) }.joined() }
        let roll = Int.random(in: 0..<20, using: &random)
        if roll < 12 { return (.ean13, withCheckDigit(String(Int.random(in: 1...9, using: &random)) + digits(11))) }
        if roll < 17 { return (.upca, withCheckDigit(digits(11))) }
        return (.ean8, withCheckDigit(digits(7)))
    }

    /// The body followed by its EAN/UPC check digit (weights 3 and 1 from the right of the body).
    public static func withCheckDigit(_ body: String) -> String {
        let sum = body.reversed().enumerated().reduce(0) { $0 + Int(String($1.element))! * ($1.offset % 2 == 0 ? 3 : 1) }
        return body + String((10 - sum % 10) % 10)
    }
}
