import Foundation
import KameraCore

/// The rule an EAN/UPC number must pass before it is reported: other scan lines across the same
/// bars, read on their own, say the same number.
///
/// zxing-cpp accepts a linear code when two of its scan lines agree, but on a blurred,
/// low-contrast code those two lines are usually neighbours (it adds check rows one and two
/// pixels away from a line that read something), so they see the same blur and noise and can
/// agree on a *different valid number*: the check digit catches one wrong digit, not two that
/// cancel. At a till that sells the wrong product. So an EAN-13, UPC-A, EAN-8 or UPC-E is
/// reported only when independent reads agree with it:
/// - the bars' upper part and their lower part (each a band of rows reaching from 3 % to 30 %
///   of the code's length off the line it was read on) both read, whole, as that number, and
///   neither as another; or
/// - single scan lines across the bars, each read alone, read that number on lines at least
///   2 % of the code's length apart, and at most half as many lines read another number.
///
/// When the rows as sampled do not agree, they are read once more with a smear of a module and
/// a half compensated along them (`SmearCompensation`), under the same two rules: a camera that
/// moved across the bars, or a lens out of focus, greys out narrow bars on every line alike, and
/// zxing-cpp then reads the code on one or two lucky lines.
///
/// (Reporting instead a number the single lines agree on by that rule was tried: it turned a
/// right reading into a wrong one where the lines, weaker readers than zxing-cpp's whole pass,
/// shared a misreading.)
///
/// On blurred, low-contrast retail codes composed for this (1,408 reads by zxing-cpp, 30 of
/// them a wrong valid number), no wrong number passed either test, and 82 % of the right ones
/// did; the rest are reads a single lucky pair of lines made, which a till should not trust.
enum GTINConfirmation {
    /// The symbologies whose numbers are checked.
    static let symbologies: Set<BarcodeSymbology> = [.ean13, .upca, .ean8, .upce]

    /// How far across the bars the rows reach, either side of the read line, as a share of the
    /// code's length (an EAN-13's bars are about 0.7 of its length tall).
    static let reach = 0.3
    /// The bands start this far off the read line, so neither holds the rows that read it.
    static let bandGap = 0.03
    /// Single lines that agree must lie at least this far apart (share of the code's length).
    static let lineSpread = 0.02
    /// At most this many lines are read (a large code's rows are taken every few pixels).
    static let maximumLines = 160

    /// Whether independent reads of the bars around `observation` in `gray` agree with its number.
    /// - Throws: the barcode engine's errors.
    static func confirms(_ observation: BarcodeObservation, in gray: PixelBuffer) throws -> Bool {
        guard let number = gtin(observation.payloadString), let rows = rows(around: observation, in: gray) else { return false }
        var pass = BarcodeReaderPass(formats: family(of: observation.symbology))
        (pass.tryRotate, pass.tryInvert, pass.tryDownscale, pass.eanAddOn) = (false, false, false, .ignore)
        if try rows.agree(on: number, pass: pass, inverted: observation.isInverted) { return true }
        // A camera that moved across the bars averaged each narrow bar with its neighbours into
        // grey, and zxing-cpp reads such a code on a lucky line or two. The same rows, sharpened
        // along their length by what a smear of a module and a half takes away, are read again
        // under the same rules: still independent lines, each read alone, agreeing.
        let module = Double(rows.width) / 1.4 / Double(modules(of: observation.symbology))
        return try rows.sharpened(smear: 2 * Int(0.75 * module) + 1).agree(on: number, pass: pass, inverted: observation.isInverted)
    }

    /// The modules between an EAN/UPC symbol's outer guard bars.
    static func modules(of symbology: BarcodeSymbology) -> Int {
        switch symbology {
        case .ean8: 67
        case .upce: 51
        default: 95
        }
    }

    /// The 13-digit form of an EAN/UPC number as zxing-cpp reports it (UPC-A's 12 digits get
    /// their leading zero), or the 8 digits of an EAN-8; nil for anything else.
    static func gtin(_ payload: String?) -> String? {
        guard let payload, payload.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        switch payload.count {
        case 12: return "0" + payload
        case 8, 13: return payload
        default: return nil
        }
    }

    /// The reader names of the family a number can be misread as: EAN-13 and UPC-A are one
    /// family (a UPC-A is an EAN-13 starting with 0); EAN-8 and UPC-E stand alone.
    static func family(of symbology: BarcodeSymbology) -> String {
        switch symbology {
        case .ean8: BarcodeSymbology.ean8.readerNames.joined(separator: ",")
        case .upce: BarcodeSymbology.upce.readerNames.joined(separator: ",")
        default: (BarcodeSymbology.ean13.readerNames + BarcodeSymbology.upca.readerNames).joined(separator: ",")
        }
    }

    /// Rows sampled along the code, one a pixel (or fewer on a large code), from `reach` of
    /// its length above the read line to as far below, each running from a fifth of the length
    /// before the code to a fifth after it (its quiet zones and a margin; past the photo's edge,
    /// the row's paper).
    struct Rows {
        /// Each row's distance from the read line, as a share of the code's length.
        var offsets: [Double] = []
        var samples: [[UInt8]] = []
        var width = 0

        /// The rows at `indices`, one above the other, as an image.
        func stacked(_ indices: [Int]) -> PixelBuffer {
            var image = PixelBuffer(width: width, height: indices.count, format: .gray8)
            for (row, index) in indices.enumerated() {
                image.bytes.replaceSubrange(row * image.bytesPerRow..<(row * image.bytesPerRow + width), with: samples[index])
            }
            return image
        }
    }

    /// The rows across `observation`'s bars. zxing-cpp reads a linear code along the image's rows
    /// or columns, so a code turned 20° was read on slanting lines; lines along those again
    /// repeat any misreading the slant caused (bars look wider by the same factor, unevenly
    /// under perspective). The rows run across the bars as they lie (the structure tensor of the
    /// code's surroundings), through the middle of the line zxing-cpp read.
    static func rows(around observation: BarcodeObservation, in gray: PixelBuffer) -> Rows? {
        guard gray.format == .gray8, gray.width > 2, gray.height > 2 else { return nil }
        // zxing-cpp's outline of a linear code: its first and last reading lines' ends.
        let c = observation.pixelCorners
        let start = PixelPoint(x: (c.topLeft.x + c.bottomLeft.x) / 2, y: (c.topLeft.y + c.bottomLeft.y) / 2)
        let end = PixelPoint(x: (c.topRight.x + c.bottomRight.x) / 2, y: (c.topRight.y + c.bottomRight.y) / 2)
        let readLength = start.distance(to: end)
        // A code longer than the image's diagonal twice over is no reading to check.
        let diagonal = Double(gray.width + gray.height)
        guard readLength.isFinite, readLength >= 20, readLength <= 2 * diagonal else { return nil }
        let center = PixelPoint(x: (start.x + end.x) / 2, y: (start.y + end.y) / 2)
        var (ux, uy) = ((end.x - start.x) / readLength, (end.y - start.y) / readLength)
        if let across = acrossBars(in: gray, around: center, radius: 0.45 * readLength) {
            // The same sense as the read line (zxing-cpp reads either way; the sense only orders the samples).
            let sense: Double = across.x * ux + across.y * uy < 0 ? -1 : 1
            (ux, uy) = (sense * across.x, sense * across.y)
        }
        // The code's length along its own axis: the read line's, foreshortened by the slant.
        let length = max(20, readLength * abs((end.x - start.x) / readLength * ux + (end.y - start.y) / readLength * uy))
        let (vx, vy) = (-uy, ux)
        let width = Int(1.4 * length)
        let step = max(1, 2 * reach * length / Double(maximumLines))
        var rows = Rows(width: width)
        let (right, bottom) = (Double(gray.width) - 0.5, Double(gray.height) - 0.5)
        gray.bytes.withUnsafeBufferPointer { pixels in
            let sampler = BilinearSampler(pixels, of: gray)
            var offset = -reach * length
            while offset <= reach * length {
                let (ox, oy) = (center.x - 0.7 * length * ux + offset * vx, center.y - 0.7 * length * uy + offset * vy)
                var row = [UInt8](repeating: 0, count: width)
                var outside: [Int] = []
                var (darkest, lightest): (UInt8?, UInt8?) = (nil, nil)
                for i in 0..<width {
                    let (x, y) = (ox + Double(i) * ux, oy + Double(i) * uy)
                    guard x >= -0.5, y >= -0.5, x <= right, y <= bottom else {
                        outside.append(i)
                        continue
                    }
                    row[i] = UInt8(sampler.sample(x: x, y: y, channel: 0).rounded())
                    (darkest, lightest) = (min(darkest ?? 255, row[i]), max(lightest ?? 0, row[i]))
                }
                // Beyond the photo's edge, the row's paper: its lightest sample (darkest for a
                // code printed light on dark). The sampler would repeat the edge pixel, and a
                // code whose guard bars touch the edge (a book cover or a package cut by the
                // frame) would get a bar as wide as the margin where its quiet zone belongs —
                // zxing-cpp reads such a code on the photo (a symbol at a row's start needs no
                // quiet zone), and every row here would refuse it.
                let paper = observation.isInverted ? darkest ?? 0 : lightest ?? 255
                for i in outside { row[i] = paper }
                rows.samples.append(row)
                rows.offsets.append(offset / length)
                offset += step
            }
        }
        return rows
    }

    /// The unit direction across the bars near `center` (the dominant gradient direction of
    /// the square of half-side `radius`, from its structure tensor), or nil where the
    /// gradients point no way in particular.
    static func acrossBars(in gray: PixelBuffer, around center: PixelPoint, radius: Double) -> PixelPoint? {
        let x0 = max(1, Int(max(0, min(Double(gray.width), center.x - radius))))
        let x1 = min(gray.width - 1, Int(max(0, min(Double(gray.width), center.x + radius))))
        let y0 = max(1, Int(max(0, min(Double(gray.height), center.y - radius))))
        let y1 = min(gray.height - 1, Int(max(0, min(Double(gray.height), center.y + radius))))
        guard x1 - x0 >= 8, y1 - y0 >= 8 else { return nil }
        // Every other pixel: enough to see bars by, half the work.
        var (jxx, jxy, jyy) = (0.0, 0.0, 0.0)
        gray.bytes.withUnsafeBufferPointer { p in
            let stride = gray.bytesPerRow
            for y in Swift.stride(from: y0, to: y1, by: 2) {
                for x in Swift.stride(from: x0, to: x1, by: 2) {
                    let i = y * stride + x
                    let gx = Double(Int(p[i + 1]) - Int(p[i - 1])), gy = Double(Int(p[i + stride]) - Int(p[i - stride]))
                    (jxx, jxy, jyy) = (jxx + gx * gx, jxy + gx * gy, jyy + gy * gy)
                }
            }
        }
        // Coherence: how much more the gradients point one way than the other.
        let spread = ((jxx - jyy) * (jxx - jyy) + 4 * jxy * jxy).squareRoot()
        guard jxx + jyy > 0, spread / (jxx + jyy) >= 0.3 else { return nil }
        let angle = 0.5 * atan2(2 * jxy, jxx - jyy)
        return PixelPoint(x: cos(angle), y: sin(angle))
    }
}

extension GTINConfirmation.Rows {
    /// Whether these rows, read alone by `pass`, confirm `number` (the rules in ``GTINConfirmation``).
    /// - Throws: the barcode engine's errors.
    func agree(on number: String, pass: BarcodeReaderPass, inverted: Bool) throws -> Bool {
        typealias Rule = GTINConfirmation
        func numbers(in image: PixelBuffer) throws -> Set<String> {
            Set(try pass.read(inverted ? image.inverted() : image).compactMap { Rule.gtin($0.payloadString) })
        }
        // The bars' upper and lower parts, each read whole.
        let upper = offsets.indices.filter { offsets[$0] <= -Rule.bandGap }
        let lower = offsets.indices.filter { offsets[$0] >= Rule.bandGap }
        if upper.count >= 4, lower.count >= 4, try numbers(in: stacked(upper)) == [number], try numbers(in: stacked(lower)) == [number] {
            return true
        }
        // Single lines, each read alone (repeated four rows high: zxing-cpp wants two rows to agree).
        var agreeing: [Double] = [], others = 0
        for index in offsets.indices {
            let read = try numbers(in: stacked(Array(repeating: index, count: 4)))
            if read.contains(number) { agreeing.append(offsets[index]) }
            if read.contains(where: { $0 != number }) { others += 1 }
        }
        guard let low = agreeing.min(), let high = agreeing.max() else { return false }
        return high - low >= Rule.lineSpread && 2 * others <= agreeing.count
    }

    /// Each row with what a smear of `smear` samples took away added back (`SmearCompensation`).
    func sharpened(smear: Int) -> Self {
        var out = self
        out.samples = samples.map { SmearCompensation.sharpened($0, smear: smear) }
        return out
    }
}
