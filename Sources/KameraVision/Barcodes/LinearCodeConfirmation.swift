import Foundation
import KameraCore

/// The agreement rule for linear codes that only an extra pass of the thorough effort read.
///
/// A turned, rescaled or inverted copy of an image sometimes lines bars up into a different
/// valid number (EAN/UPC check digits catch only one wrong digit in ten; Code 39, ITF and
/// Codabar usually carry none). At a till a wrong number is worse than none, so such a code
/// is reported only when a second, independent read agrees: another pass found the same
/// payload there, or a fresh read of a crop around it, turned to the code's own measured
/// angle (or a little beside it), says the same.
enum LinearCodeConfirmation {
    /// Whether a read of the region around `observation` in `gray` gives the same payload.
    static func confirms(_ observation: BarcodeObservation, in gray: PixelBuffer, pass: BarcodeReaderPass) throws -> Bool {
        let corners = observation.pixelCorners
        let dx = corners.topRight.x - corners.topLeft.x, dy = corners.topRight.y - corners.topLeft.y
        let length = max((dx * dx + dy * dy).squareRoot(), 8)
        let angle = atan2(dy, dx) * 180 / .pi
        // Scan-line quads of linear codes are flat: the crop reaches a third of the code's
        // length to every side, which covers the bars' height and the quiet zones.
        let margin = length * 0.35
        let crop = gray.cropped(to: corners.boundingRect.expanded(dx: margin, dy: margin))
        var check = pass
        check.formats = observation.symbology.readerNames.joined(separator: ",")
        check.tryInvert = false
        // The measured angle, which is the turned pass's axis rather than the bars' own (faint
        // or blurred codes read only within a degree or two of theirs), then 2° and 4° either
        // way, and the crop as it is (zxing-cpp's DataBar corners from a turned image can point
        // the wrong way): resamplings and surroundings the pass that found it did not see.
        // (Upscaling is no help: it blurs the bars.)
        for turn in [angle, angle + 2, angle - 2, angle + 4, angle - 4] + (abs(angle) > 1 ? [0] : []) {
            let upright = turn == 0 ? crop : crop.rotated(byDegrees: -turn, fill: observation.isInverted ? 0 : 255).buffer
            if try check.read(observation.isInverted ? upright.inverted() : upright)
                .contains(where: { $0.payloadData == observation.payloadData })
            {
                return true
            }
        }
        return false
    }
}
