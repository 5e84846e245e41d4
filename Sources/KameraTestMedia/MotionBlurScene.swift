import Foundation
import KameraCore
import KameraVision

/// A retail code in a close-up taken in motion, as a phone held over packaging sees it: one
/// EAN-13, UPC-A or EAN-8 over half to nearly all of the photo's width, seen from one end (the
/// far end 15–45 % shorter, modules narrowing towards it), smeared by the hand's movement over
/// 0.3–1.6 modules (half the time along the code's length, where it hurts most), and the
/// package's print — a piece of another real photo — 1–4 modules past one or both guard bars,
/// where the standard asks for 7–11 modules of blank quiet zone.
public enum MotionBlurScene {
    /// Scene `index` of the set made with `seed` over `photos` (`kamera-bench dataset
    /// --motion-scenes`): its own seed, a background and another photo as the print.
    /// - Throws: the generator's errors.
    public static func make(index: Int, of seed: UInt64, photos: [PixelBuffer]) throws -> (
        image: PixelBuffer, symbology: BarcodeSymbology, number: String, jpegQuality: Int
    ) {
        precondition(!photos.isEmpty, "a motion scene needs photos")
        return try make(
            seed: seed &* 100_000 &+ 70_000 &+ UInt64(index), background: photos[(index + 3) % photos.count],
            print: photos[(index + 7) % photos.count])
    }

    /// The scene for `seed` over `background`, with `print` pasted beside the code, and the
    /// number printed in it.
    /// - Throws: the generator's errors.
    public static func make(seed: UInt64, background: PixelBuffer, print: PixelBuffer) throws -> (
        image: PixelBuffer, symbology: BarcodeSymbology, number: String, jpegQuality: Int
    ) {
        var random = SeededRandom(seed: seed)
        let (width, height) = (800, 600)
        var composer = SceneComposer(background: background, width: width, height: height)
        let (symbology, number) = RetailScene.randomNumber(using: &random)
        let allModules = symbology == .ean8 ? 81.0 : 113.0
        let codeWidth = Double(width) * Double.random(in: 0.5...0.92, using: &random)
        let nearAxis = Int.random(in: 0..<10, using: &random) < 8
        let rotation =
            nearAxis
            ? Double([0, 0, 90, 180, 270].randomElement(using: &random)!) + Double.random(in: -12...12, using: &random)
            : Double.random(in: 0..<360, using: &random)
        // A code turned onto the photo's short side must still fit in it.
        let across = abs(sin(rotation * .pi / 180)) > 0.5
        let fitted = across ? min(codeWidth, Double(height) * 0.95) : codeWidth
        let pose = CodePose(
            center: PixelPoint(
                x: Double(width) / 2 + Double.random(in: -40...40, using: &random),
                y: Double(height) / 2 + Double.random(in: -30...30, using: &random)),
            width: fitted, rotation: rotation, tilt: Double.random(in: 0...0.12, using: &random),
            yaw: Double.random(in: 0.15...0.45, using: &random))
        let placed = try composer.place(symbology, payload: .text(number), pose: pose, moduleSize: 3)
        let module = fitted / allModules

        // The package's print, 1–4 modules past the guard bars: on one end, or both.
        let q = placed.symbolQuad
        let barModules = symbology == .ean8 ? 67.0 : 95.0
        let ends = [[true], [false], [true, false]].randomElement(using: &random)!
        for atLeftEnd in ends {
            let gap = Double.random(in: 1...4, using: &random)
            let reach = Double.random(in: 12...30, using: &random)
            let quad = printQuad(beside: q, atLeftEnd: atLeftEnd, gap: gap / barModules, reach: reach / barModules)
            let side = min(print.width, print.height) / 2
            let x = Int.random(in: 0...(print.width - side), using: &random)
            let y = Int.random(in: 0...(print.height - side), using: &random)
            composer.paste(print.cropped(to: PixelRect(x: Double(x), y: Double(y), width: Double(side), height: Double(side))), onto: quad)
        }

        let alongCode = Bool.random(using: &random)
        let damage = Degradation(
            blurSigma: module * Double.random(in: 0.1...0.3, using: &random),
            noiseSigma: Double.random(in: 1...5, using: &random),
            contrast: Double.random(in: 0.5...1, using: &random),
            motionLength: module * Double.random(in: 0.3...1.6, using: &random),
            motionAngle: alongCode ? rotation + Double.random(in: -30...30, using: &random) : Double.random(in: 0..<180, using: &random))
        return (composer.render(damage, seed: seed), symbology, number, Int.random(in: 70...92, using: &random))
    }

    /// A quad beside the symbol's left or right end, starting `gap` and ending `gap + reach`
    /// symbol lengths past it, as tall as the bars there and a little more.
    static func printQuad(beside q: Quad, atLeftEnd: Bool, gap: Double, reach: Double) -> Quad {
        func along(_ from: PixelPoint, _ to: PixelPoint, _ t: Double) -> PixelPoint {
            PixelPoint(x: from.x + (to.x - from.x) * t, y: from.y + (to.y - from.y) * t)
        }
        // Top and bottom edges as seen from the chosen end, extrapolated outward.
        let (topEnd, topOther, bottomEnd, bottomOther) =
            atLeftEnd
            ? (q.topLeft, q.topRight, q.bottomLeft, q.bottomRight) : (q.topRight, q.topLeft, q.bottomRight, q.bottomLeft)
        let topNear = along(topEnd, topOther, -gap), topFar = along(topEnd, topOther, -(gap + reach))
        let bottomNear = along(bottomEnd, bottomOther, -gap), bottomFar = along(bottomEnd, bottomOther, -(gap + reach))
        // 15 % taller above and below, as print around a label is.
        let (t0, b0) = (along(topNear, bottomNear, -0.15), along(bottomNear, topNear, -0.15))
        let (t1, b1) = (along(topFar, bottomFar, -0.15), along(bottomFar, topFar, -0.15))
        return atLeftEnd
            ? Quad(topLeft: t1, topRight: t0, bottomRight: b0, bottomLeft: b1)
            : Quad(topLeft: t0, topRight: t1, bottomRight: b1, bottomLeft: b0)
    }
}
