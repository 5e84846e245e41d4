import Foundation
import KameraCore
import KameraVision

/// A retail code photographed with one end at the photo's edge, as on a book cover or a
/// package that fills the frame: one EAN-13, UPC-A or EAN-8 on a real photo, turned up to 8°
/// from an axis, slightly tilted and blurred, and the photo cut square to the code's length
/// from 0.6 of a module inside its end (a guard bar partly gone) to 3 modules out into its
/// quiet zone (the standard asks for 7–11 there).
public enum EdgeCutScene {
    /// The scene for `seed` over `background`, the number printed in it, and how far (modules,
    /// outward from the symbol's end; negative: into its guard bar) the photo's edge lies.
    /// - Throws: the generator's errors.
    public static func make(seed: UInt64, background: PixelBuffer) throws -> (
        image: PixelBuffer, symbology: BarcodeSymbology, number: String, cutModules: Double, jpegQuality: Int
    ) {
        var random = SeededRandom(seed: seed)
        var composer = SceneComposer(background: background, width: 800, height: 600)
        let (symbology, number) = RetailScene.randomNumber(using: &random)
        let (barModules, allModules) = symbology == .ean8 ? (67.0, 81.0) : (95.0, 113.0)
        let module = Double.random(in: 2.0...3.5, using: &random)
        let rotation =
            Double([0, 0, 90, 180, 270].randomElement(using: &random)!) + Double.random(in: -8...8, using: &random)
        let pose = CodePose(
            center: PixelPoint(x: 400 + Double.random(in: -80...80, using: &random), y: 300 + Double.random(in: -60...60, using: &random)),
            width: allModules * module, rotation: rotation, tilt: Double.random(in: 0...0.12, using: &random))
        let placed = try composer.place(symbology, payload: .text(number), pose: pose, moduleSize: 3)
        let damage = Degradation(
            blurSigma: module * Double.random(in: 0.1...0.4, using: &random),
            noiseSigma: Double.random(in: 1...5, using: &random),
            contrast: Double.random(in: 0.5...1, using: &random))
        let image = composer.render(damage, seed: seed)

        // The end to cut at, and which way is out of the symbol there.
        let q = placed.symbolQuad
        let left = PixelPoint(x: (q.topLeft.x + q.bottomLeft.x) / 2, y: (q.topLeft.y + q.bottomLeft.y) / 2)
        let right = PixelPoint(x: (q.topRight.x + q.bottomRight.x) / 2, y: (q.topRight.y + q.bottomRight.y) / 2)
        let cutsLeftEnd = Bool.random(using: &random)
        let (end, other) = cutsLeftEnd ? (left, right) : (right, left)
        let length = end.distance(to: other)
        let (ox, oy) = ((end.x - other.x) / length, (end.y - other.y) / length)
        let printedModule = length / barModules
        let cutModules = Double.random(in: -0.6...3.0, using: &random)
        let cut = PixelPoint(x: end.x + ox * cutModules * printedModule, y: end.y + oy * cutModules * printedModule)
        // The photo's side the end faces is cut through that point.
        var keep = PixelRect(x: 0, y: 0, width: Double(image.width), height: Double(image.height))
        if abs(ox) >= abs(oy) {
            let x = cut.x.rounded()
            keep =
                ox < 0
                ? PixelRect(x: x, y: 0, width: keep.width - x, height: keep.height) : PixelRect(x: 0, y: 0, width: x, height: keep.height)
        } else {
            let y = cut.y.rounded()
            keep =
                oy < 0
                ? PixelRect(x: 0, y: y, width: keep.width, height: keep.height - y) : PixelRect(x: 0, y: 0, width: keep.width, height: y)
        }
        return (image.cropped(to: keep), symbology, number, cutModules, Int.random(in: 70...92, using: &random))
    }
}
