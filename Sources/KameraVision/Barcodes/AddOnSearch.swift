import Foundation
import KameraCore

/// A second look for the EAN-2/EAN-5 add-on of an EAN/UPC number that was read without one.
///
/// zxing-cpp reads an add-on only on a scan line that crosses the main symbol and then the
/// add-on. On a code turned a few degrees from the axis, or tilted so its bars shorten towards
/// one end, the lines that cross the main symbol run off the add-on's bars: the number is read
/// and the add-on — a book's price, a magazine's issue — is silently missing. Here the code's
/// surroundings in its reading direction are cut out, turned upright to the code's own angle
/// (and 2° either side), and read again requiring an add-on. An add-on is taken only for the
/// same number, and as zxing-cpp reports it: agreed by at least two scan lines (its
/// `minLineCount`), two or five digits; and only where it lies on the number's own paper
/// (`isOnTheSamePaper`), not on whatever is beyond the label's edge.
enum AddOnSearch {
    /// The symbologies that can carry an add-on.
    static let carriers: Set<BarcodeSymbology> = [.ean13, .upca, .upce, .ean8]

    /// The add-on printed beside `observation`, if a fresh read of its surroundings finds one.
    /// - Parameters:
    ///   - observation: an EAN/UPC number read without an add-on.
    ///   - gray: the image it was read in.
    ///   - pass: the settings it was read with (formats and add-on mode are replaced).
    /// - Throws: the barcode engine's errors.
    static func addOn(for observation: BarcodeObservation, in gray: PixelBuffer, pass: BarcodeReaderPass) throws -> String? {
        guard carriers.contains(observation.symbology), observation.supplementalPayloadString == nil else { return nil }
        let corners = observation.pixelCorners
        // zxing-cpp's scan-line outline runs from the code's start (top-left) to its end
        // (top-right) in reading direction, whatever the code's turn.
        let start = midpoint(corners.topLeft, corners.bottomLeft), end = midpoint(corners.topRight, corners.bottomRight)
        let dx = end.x - start.x, dy = end.y - start.y
        let length = (dx * dx + dy * dy).squareRoot()
        guard length.isFinite, length >= 16 else { return nil }
        let angle = atan2(dy, dx) * 180 / .pi
        // An add-on starts 7–12 modules after the main symbol and is 20 (EAN-2) or 47 (EAN-5)
        // modules long: at most 0.62 of an EAN-13's 95 modules, 0.88 of an EAN-8's 67 and
        // 1.16 of a UPC-E's 51. The crop reaches that far beyond the end, a quiet zone before
        // the start, and the bars' height either side of the line.
        let reach: Double = observation.symbology == .upce ? 1.3 : (observation.symbology == .ean8 ? 1.0 : 0.75)
        let unit = PixelPoint(x: dx / length, y: dy / length)
        let far = PixelPoint(x: end.x + unit.x * length * reach, y: end.y + unit.y * length * reach)
        let near = PixelPoint(x: start.x - unit.x * length * 0.15, y: start.y - unit.y * length * 0.15)
        let half = length * 0.35
        let box = PixelRect(
            x: min(near.x, far.x) - half, y: min(near.y, far.y) - half, width: abs(far.x - near.x) + 2 * half,
            height: abs(far.y - near.y) + 2 * half)
        // Most codes carry no add-on: a read is spent only where bars go on beyond the end.
        // The scan line is the row zxing-cpp read along, not necessarily square to the bars
        // (a turned, sheared code is read along a slant): the look beyond fans out ±20°.
        let module = length / Double(GTINConfirmation.modules(of: observation.symbology))
        let main = ScanLineProfile(gray, from: start, to: end, step: module / 3, across: 2)
        let edgesBeyond = fannedLines(beyond: end, unit: unit, skipping: 3, span: length * reach, module: module, in: gray)
            .map { $0.edges(threshold: 0.3 * main.contrast) }
        guard (edgesBeyond.max() ?? 0) >= minimumAddOnEdges else { return nil }
        guard let region = box.intersection(gray.bounds), region.width >= 16, region.height >= 16 else { return nil }
        let crop = gray.cropped(to: region)
        var search = pass
        search.formats = observation.symbology.readerNames.joined(separator: ",")
        search.eanAddOn = .require
        search.tryRotate = false  // the crop is turned upright here
        search.tryInvert = false
        search.tryDownscale = false  // the crop is the code's size already
        search.maxSymbols = 0
        for turn in [angle, angle + 2, angle - 2] {
            let upright = abs(turn) < 0.5 ? crop : crop.rotated(byDegrees: -turn, fill: observation.isInverted ? 0 : 255).buffer
            let reads = try search.read(observation.isInverted ? upright.inverted() : upright)
            if let match = reads.first(where: { $0.payloadData == observation.payloadData && $0.supplementalPayloadString != nil }),
                let addOn = match.supplementalPayloadString
            {
                let beyond = linesBeyond(end, unit: unit, module: module, digits: addOn.count, in: gray)
                guard isOnTheSamePaper(beyond, as: main, inverted: observation.isInverted) else { return nil }
                return addOn
            }
        }
        return nil
    }

    /// Profiles over where an add-on of `digits` digits would lie beyond `end` (7–12 modules
    /// after the main symbol, then 20 or 47 modules long), on lines fanned ±20° as the look for
    /// bars beyond is (a sheared code's add-on lies off the axis).
    static func linesBeyond(_ end: PixelPoint, unit: PixelPoint, module: Double, digits: Int, in gray: PixelBuffer) -> [ScanLineProfile] {
        fannedLines(beyond: end, unit: unit, skipping: 7, span: ((digits == 2 ? 20.0 : 47.0) + 5) * module, module: module, in: gray)
    }

    /// Profiles `span` pixels long from `skipping` modules past `end`, one along `unit` and the
    /// others turned from it every 5° up to ±20°, sampled every third of a module.
    private static func fannedLines(
        beyond end: PixelPoint, unit: PixelPoint, skipping modules: Double, span: Double, module: Double, in gray: PixelBuffer
    ) -> [ScanLineProfile] {
        let from = PixelPoint(x: end.x + unit.x * module * modules, y: end.y + unit.y * module * modules)
        return stride(from: -20.0, through: 20.0, by: 5.0).map { degrees in
            let (c, s) = (cos(degrees * .pi / 180), sin(degrees * .pi / 180))
            let to = PixelPoint(x: from.x + (unit.x * c - unit.y * s) * span, y: from.y + (unit.x * s + unit.y * c) * span)
            return ScanLineProfile(gray, from: from, to: to, step: module / 3, across: 2)
        }
    }

    /// Whether an add-on lies on the main symbol's paper: on one of the lines `beyond` it, the
    /// paper-side fifth of the samples reaches three-quarters of the way from the main
    /// symbol's ink to its paper. A label's edge a few modules past the number, then a circuit
    /// board or a picture, decodes now and then as an EAN-2 (two digits carry one parity
    /// check); a printed add-on sits on the number's own label.
    static func isOnTheSamePaper(_ beyond: [ScanLineProfile], as main: ScanLineProfile, inverted: Bool) -> Bool {
        let levels = main.values.sorted()
        guard levels.count >= 10 else { return true }
        // In the code's polarity: the paper is the light side, the dark one when inverted.
        let (low, high) = (levels[levels.count / 10], levels[levels.count * 9 / 10])
        let (ink, paper) = inverted ? (high, low) : (low, high)
        let threshold = ink + 0.75 * (paper - ink)
        return beyond.contains { line in
            let values = line.values.sorted()
            guard !values.isEmpty else { return false }
            let light = inverted ? values[values.count / 5] : values[values.count * 4 / 5]
            return inverted ? light <= threshold : light >= threshold
        }
    }

    /// Turns of brightness (`ScanLineProfile.edges`) beyond a number that may be an add-on: an
    /// EAN-2, the shorter one, has six bars (guard 1011, two digits of two bars, with 01
    /// between) and so about eleven turns; blur merging a few leaves at least eight.
    static let minimumAddOnEdges = 8

    private static func midpoint(_ a: PixelPoint, _ b: PixelPoint) -> PixelPoint {
        PixelPoint(x: (a.x + b.x) / 2, y: (a.y + b.y) / 2)
    }
}
