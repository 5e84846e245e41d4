import KameraCore

/// A frame's summed-area table of luma: the mean brightness of any box in four lookups, which
/// is what lets ``AppearanceFollower`` compare a face's look at hundreds of places and sizes a
/// frame for a few milliseconds.
struct LumaIntegral {
    let width: Int
    let height: Int
    /// (width + 1) × (height + 1) running sums; 64-bit because a 4K frame's sum passes 2³¹.
    private var sums: [Int]

    /// - Parameter frame: any format; colour is weighted to luma (BT.601, in integers).
    init(_ frame: PixelBuffer) {
        let (width, height) = (frame.width, frame.height)
        let stride = width + 1
        var table = [Int](repeating: 0, count: stride * (height + 1))
        let (bytesPerPixel, bytesPerRow, format) = (frame.format.bytesPerPixel, frame.bytesPerRow, frame.format)
        // Channel offsets of red, green and blue (gray reads its one channel three times).
        let (r, g, b) =
            switch format {
            case .gray8: (0, 0, 0)
            case .rgb8, .rgba8: (0, 1, 2)
            case .bgra8: (2, 1, 0)
            }
        frame.bytes.withUnsafeBufferPointer { pixels in
            table.withUnsafeMutableBufferPointer { out in
                for y in 0..<height {
                    var rowSum = 0
                    let row = y * bytesPerRow
                    for x in 0..<width {
                        let p = row + x * bytesPerPixel
                        rowSum += (77 * Int(pixels[p + r]) + 150 * Int(pixels[p + g]) + 29 * Int(pixels[p + b])) >> 8
                        out[(y + 1) * stride + x + 1] = out[y * stride + x + 1] + rowSum
                    }
                }
            }
        }
        (self.width, self.height, sums) = (width, height, table)
    }

    /// The mean luma of the pixels whose centres fall in [x0, x1) × [y0, y1), clamped to the
    /// frame (at least one pixel: a box off the frame reads its nearest edge pixel).
    func mean(x0: Double, y0: Double, x1: Double, y1: Double) -> Float {
        let left = Self.clamp(x0, width - 1), top = Self.clamp(y0, height - 1)
        let right = max(left + 1, Self.clamp(x1, width)), bottom = max(top + 1, Self.clamp(y1, height))
        let stride = width + 1
        let total = sums[bottom * stride + right] - sums[top * stride + right] - sums[bottom * stride + left] + sums[top * stride + left]
        return Float(total) / Float((right - left) * (bottom - top))
    }

    /// `value` rounded into 0…`limit` (NaN to 0: a coordinate that is not a number reads the corner, not a trap).
    private static func clamp(_ value: Double, _ limit: Int) -> Int {
        guard value.isFinite else { return 0 }
        return Int(min(Double(limit), max(0, value.rounded())))
    }
}
