import KameraCore

/// Paints redactions over a frame: each region's pixels replaced by a blur, blocks or fill
/// made from that region alone (so a covered face never bleeds into, or takes colour from,
/// its surroundings).
public struct RedactionPainter: Sendable {
    /// How the covered pixels look.
    public var style: RedactionStyle

    public init(style: RedactionStyle = .blur) { self.style = style }

    /// `frame` (converted to packed RGB) with every region covered, and the pixels where
    /// `covered` says so (a person mask, in the frame's pixels) covered too.
    /// - Parameters:
    ///   - regions: outlines in the frame's pixels; parts outside the frame are ignored.
    ///   - covered: extra coverage: for the pixel (x, y), whether it is covered; `coveredBounds`
    ///     limits where it is asked.
    public func paint(
        _ regions: [RedactionRegion], on frame: PixelBuffer, covered: ((Int, Int) -> Bool)? = nil,
        coveredBounds: PixelRect? = nil
    ) -> PixelBuffer {
        var out = frame.format == .rgb8 ? frame.packed() : frame.converted(to: .rgb8)
        for region in regions {
            guard let box = Self.pixelBox(region.shape.bounds, out.width, out.height) else { continue }
            let shape = region.shape
            cover(&out, box) { x, y in shape.contains(PixelPoint(x: Double(x) + 0.5, y: Double(y) + 0.5)) }
        }
        if let covered, let bounds = coveredBounds, let box = Self.pixelBox(bounds, out.width, out.height) {
            // Pixels a region has covered keep that look (a second, differently cut pattern
            // over the same person would draw their outline).
            let shapes = regions.map(\.shape)
            cover(&out, box) { x, y in
                let centre = PixelPoint(x: Double(x) + 0.5, y: Double(y) + 0.5)
                return covered(x, y) && !shapes.contains { $0.contains(centre) }
            }
        }
        return out
    }

    /// Integer bounds of `rect` clipped to the frame; nil when nothing is left.
    private static func pixelBox(_ rect: PixelRect, _ width: Int, _ height: Int) -> (x0: Int, y0: Int, x1: Int, y1: Int)? {
        let values = [rect.minX, rect.minY, rect.maxX, rect.maxY]
        // A NaN or infinite outline (a detector gone wrong) covers nothing rather than trapping.
        guard values.allSatisfy(\.isFinite) else { return nil }
        let x0 = Int(max(0, min(Double(width), rect.minX.rounded(.down))))
        let y0 = Int(max(0, min(Double(height), rect.minY.rounded(.down))))
        let x1 = Int(max(0, min(Double(width), rect.maxX.rounded(.up))))
        let y1 = Int(max(0, min(Double(height), rect.maxY.rounded(.up))))
        return x1 > x0 && y1 > y0 ? (x0, y0, x1, y1) : nil
    }

    /// Replaces the pixels of `box` for which `inside` holds with the style's version of the box.
    private func cover(_ image: inout PixelBuffer, _ box: (x0: Int, y0: Int, x1: Int, y1: Int), _ inside: (Int, Int) -> Bool) {
        let (width, height) = (box.x1 - box.x0, box.y1 - box.y0)
        let patch = replacement(image, box, width, height)
        let row = image.bytesPerRow
        image.bytes.withUnsafeMutableBufferPointer { pixels in
            for y in 0..<height {
                for x in 0..<width where inside(box.x0 + x, box.y0 + y) {
                    let target = (box.y0 + y) * row + (box.x0 + x) * 3, source = (y * width + x) * 3
                    pixels[target] = patch[source]
                    pixels[target + 1] = patch[source + 1]
                    pixels[target + 2] = patch[source + 2]
                }
            }
        }
    }

    /// The style's pixels for the box, packed RGB, `width` × `height`.
    private func replacement(_ image: PixelBuffer, _ box: (x0: Int, y0: Int, x1: Int, y1: Int), _ width: Int, _ height: Int)
        -> [UInt8]
    {
        switch style {
        case .fill:
            return [UInt8](repeating: 0, count: width * height * 3)
        case .pixelate:
            let block = max(2, max(width, height) / 10)
            let (small, smallWidth, smallHeight) = Self.blockMeans(image, box, block)
            var out = [UInt8](repeating: 0, count: width * height * 3)
            for y in 0..<height {
                for x in 0..<width {
                    let s = (min(y / block, smallHeight - 1) * smallWidth + min(x / block, smallWidth - 1)) * 3
                    out[(y * width + x) * 3] = small[s]
                    out[(y * width + x) * 3 + 1] = small[s + 1]
                    out[(y * width + x) * 3 + 2] = small[s + 2]
                }
            }
            return out
        case .blur:
            // About a dozen cells across the longer side, blurred once more there, then
            // stretched back smoothly: the look of a very wide Gaussian at a small cost.
            let block = max(1, max(width, height) / 12)
            var (small, smallWidth, smallHeight) = Self.blockMeans(image, box, block)
            small = Self.boxBlurred(small, smallWidth, smallHeight)
            return Self.stretched(small, smallWidth, smallHeight, to: width, height)
        }
    }

    /// The box cut into `block`-sized cells (the last row and column take what is left), each
    /// the mean of its pixels.
    private static func blockMeans(_ image: PixelBuffer, _ box: (x0: Int, y0: Int, x1: Int, y1: Int), _ block: Int)
        -> ([UInt8], Int, Int)
    {
        let (width, height) = (box.x1 - box.x0, box.y1 - box.y0)
        let (columns, rows) = ((width + block - 1) / block, (height + block - 1) / block)
        var sums = [Int](repeating: 0, count: columns * rows * 3), counts = [Int](repeating: 0, count: columns * rows)
        let row = image.bytesPerRow
        image.bytes.withUnsafeBufferPointer { pixels in
            for y in 0..<height {
                let cellRow = (y / block) * columns, base = (box.y0 + y) * row + box.x0 * 3
                for x in 0..<width {
                    let cell = cellRow + x / block, p = base + x * 3
                    sums[cell * 3] += Int(pixels[p])
                    sums[cell * 3 + 1] += Int(pixels[p + 1])
                    sums[cell * 3 + 2] += Int(pixels[p + 2])
                    counts[cell] += 1
                }
            }
        }
        var out = [UInt8](repeating: 0, count: columns * rows * 3)
        for cell in counts.indices where counts[cell] > 0 {
            for channel in 0..<3 { out[cell * 3 + channel] = UInt8(sums[cell * 3 + channel] / counts[cell]) }
        }
        return (out, columns, rows)
    }

    /// A 3×3 mean (edges clamped) of a small packed RGB image.
    private static func boxBlurred(_ image: [UInt8], _ width: Int, _ height: Int) -> [UInt8] {
        var out = image
        for y in 0..<height {
            for x in 0..<width {
                for channel in 0..<3 {
                    var sum = 0
                    for dy in -1...1 {
                        for dx in -1...1 {
                            let (sx, sy) = (min(max(x + dx, 0), width - 1), min(max(y + dy, 0), height - 1))
                            sum += Int(image[(sy * width + sx) * 3 + channel])
                        }
                    }
                    out[(y * width + x) * 3 + channel] = UInt8(sum / 9)
                }
            }
        }
        return out
    }

    /// A small packed RGB image stretched bilinearly to `width` × `height` (centres aligned).
    /// Separable: each small row is stretched across once, and every output row mixes the two
    /// stretched rows around it (a whole-frame cover is 2.7 million values a frame).
    private static func stretched(_ image: [UInt8], _ smallWidth: Int, _ smallHeight: Int, to width: Int, _ height: Int) -> [UInt8] {
        let columns = FloatMask.taps(width, smallWidth), rows = FloatMask.taps(height, smallHeight)
        let rowLength = width * 3
        var across = [Float](repeating: 0, count: smallHeight * rowLength)
        for row in 0..<smallHeight {
            let source = row * smallWidth * 3, target = row * rowLength
            for (x, (c0, c1, fx)) in columns.enumerated() {
                for channel in 0..<3 {
                    let a = Float(image[source + c0 * 3 + channel]), b = Float(image[source + c1 * 3 + channel])
                    across[target + x * 3 + channel] = a + (b - a) * fx
                }
            }
        }
        return [UInt8](unsafeUninitializedCapacity: height * rowLength) { out, count in
            across.withUnsafeBufferPointer { across in
                for (y, (r0, r1, fy)) in rows.enumerated() {
                    let top = r0 * rowLength, bottom = r1 * rowLength, target = y * rowLength
                    for i in 0..<rowLength {
                        let value = across[top + i] + (across[bottom + i] - across[top + i]) * fy
                        out[target + i] = UInt8(min(max(value + 0.5, 0), 255))
                    }
                }
            }
            count = height * rowLength
        }
    }
}
