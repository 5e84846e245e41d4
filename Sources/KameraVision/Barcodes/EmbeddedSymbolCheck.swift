import Foundation
import KameraCore

/// Whether a short EAN/UPC read (UPC-E, EAN-8) is really part of a longer symbol's bars.
///
/// A UPC-E's 51 modules or an EAN-8's 67 fit inside an EAN-13's 95, and a scan line that
/// crosses the bottom of a turned or sheared EAN-13 can decode its middle as a valid UPC-E —
/// a different valid GTIN, the worst misread a till can make. A printed short symbol has a
/// quiet zone of 7 or more modules either side; bars that go on right past either end of the
/// read mean it was cut out of something longer, and it is dropped.
enum EmbeddedSymbolCheck {
    /// The short symbologies that fit inside longer ones.
    static let shortSymbols: Set<BarcodeSymbology> = [.upce, .ean8]
    /// Turns of brightness (`ScanLineProfile.edges`) within the quiet zone that mark bars going
    /// on: a bar and the start of the next, or a bar between two light gaps. Looked for only on
    /// lines that cross the read's own bars, where a printed code has nothing beside it.
    static let edgesInQuietZone = 2

    /// True when `observation` is a short EAN/UPC whose bars continue past either end in `gray`.
    static func isEmbedded(_ observation: BarcodeObservation, in gray: PixelBuffer) -> Bool {
        guard shortSymbols.contains(observation.symbology), gray.format == .gray8 else { return false }
        let corners = observation.pixelCorners
        let start = PixelPoint(x: (corners.topLeft.x + corners.bottomLeft.x) / 2, y: (corners.topLeft.y + corners.bottomLeft.y) / 2)
        let end = PixelPoint(x: (corners.topRight.x + corners.bottomRight.x) / 2, y: (corners.topRight.y + corners.bottomRight.y) / 2)
        let dx = end.x - start.x, dy = end.y - start.y
        let length = (dx * dx + dy * dy).squareRoot()
        // Finite before the sample counts below become integers.
        guard length.isFinite, length >= 16 else { return false }
        let module = length / (observation.symbology == .upce ? 51 : 67)
        let (ux, uy) = (dx / length, dy / length)
        let along = ScanLineProfile(gray, from: start, to: end, step: module / 3, across: 1)
        let threshold = 0.3 * along.contrast
        let barEdges = along.edges(threshold: threshold)
        // The scan line may run along the ends of a longer symbol's bars (the slanted bottom of
        // a turned EAN-13, whose bars stop short of the line further on): the quiet zones are
        // looked at on lines moved along the bars too, a tenth and a fifth of the read's length
        // either way — on those that still cross its bars (beyond them is the photo, not a
        // quiet zone). Along the bars, not square to the line: a turned code is read along a
        // row that crosses its bars at a slant, and a line moved square to it would slide
        // along the symbol into its own bars.
        let (nx, ny) = barDirection(in: gray, from: start, to: end, step: module / 3)
        for offset in [0, -0.1, 0.1, -0.2, 0.2].map({ $0 * length }) {
            let (sx, sy) = (nx * offset, ny * offset)
            func profile(from a: Double, to b: Double) -> ScanLineProfile {
                ScanLineProfile(
                    gray, from: PixelPoint(x: start.x + sx + ux * a, y: start.y + sy + uy * a),
                    to: PixelPoint(x: start.x + sx + ux * b, y: start.y + sy + uy * b), step: module / 3, across: 1)
            }
            if offset != 0, Double(profile(from: 0, to: length).edges(threshold: threshold)) < 0.7 * Double(barEdges) { continue }
            // From a module clear of the guards to the edge of the quiet zones the standard asks
            // for (UPC-E: 9 modules before, 7 after; EAN-8: 7 each side).
            let after = profile(from: length + module, to: length + 7 * module).edges(threshold: threshold)
            let before = profile(from: -module, to: -(observation.symbology == .upce ? 9 : 7) * module).edges(threshold: threshold)
            if max(after, before) >= edgesInQuietZone { return true }
        }
        return false
    }

    /// The bars' direction (a unit vector) where the segment crosses them: square to the
    /// brightness gradient, whose orientation is averaged over the segment as a doubled angle
    /// weighted by its strength (dark-to-light and light-to-dark edges agree).
    private static func barDirection(in gray: PixelBuffer, from start: PixelPoint, to end: PixelPoint, step: Double) -> (Double, Double) {
        let dx = end.x - start.x, dy = end.y - start.y
        let length = (dx * dx + dy * dy).squareRoot()
        let count = min(Int(length / step) + 1, 10_000)
        var (c, s) = (0.0, 0.0)
        gray.bytes.withUnsafeBufferPointer { pixels in
            let sampler = BilinearSampler(pixels, of: gray)
            for i in 0..<count {
                let t = Double(i) / Double(max(count - 1, 1))
                let (x, y) = (start.x + dx * t, start.y + dy * t)
                let gx = sampler.sample(x: x + 1, y: y, channel: 0) - sampler.sample(x: x - 1, y: y, channel: 0)
                let gy = sampler.sample(x: x, y: y + 1, channel: 0) - sampler.sample(x: x, y: y - 1, channel: 0)
                c += gx * gx - gy * gy
                s += 2 * gx * gy
            }
        }
        let gradient = atan2(s, c) / 2
        return (-sin(gradient), cos(gradient))
    }
}
