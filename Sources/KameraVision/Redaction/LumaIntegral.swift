import KameraCore

/// A frame's summed-area table of luma: the mean brightness of any box in four lookups, which
/// is what lets ``AppearanceFollower`` compare a face's look at hundreds of places and sizes a
/// frame for a few milliseconds.
struct LumaIntegral {
    let width: Int
    let height: Int
    /// (width + 1) × (height + 1) running sums, modulo 2³²: a box's sum comes out exact from
    /// four wrapping lookups while the box holds fewer than 2³² / 255 (16.8 million) pixels,
    /// and 32-bit sums halve the memory each frame writes and reads against 64-bit ones.
    private var sums: [UInt32]

    /// - Parameter frame: any format; colour is weighted to luma (BT.601, in integers).
    init(_ frame: PixelBuffer) {
        let (width, height) = (frame.width, frame.height)
        let stride = width + 1
        let (bytesPerPixel, bytesPerRow, format) = (frame.format.bytesPerPixel, frame.bytesPerRow, frame.format)
        // Channel offsets of red, green and blue (gray reads its one channel three times).
        let (r, g, b) =
            switch format {
            case .gray8: (0, 0, 0)
            case .rgb8, .rgba8: (0, 1, 2)
            case .bgra8: (2, 1, 0)
            }
        let table = frame.bytes.withUnsafeBufferPointer { pixels in
            [UInt32](unsafeUninitializedCapacity: stride * (height + 1)) { out, count in
                guard let first = pixels.baseAddress, let sums = out.baseAddress else { return }
                // Row 0 and column 0 are the zeros the lookups subtract.
                sums.initialize(repeating: 0, count: stride)
                for y in 0..<height {
                    var rowSum: UInt32 = 0
                    var pixel = first + y * bytesPerRow
                    let above = sums + y * stride + 1, here = above + stride
                    here[-1] = 0
                    for x in 0..<width {
                        rowSum &+= (77 &* UInt32(pixel[r]) &+ 150 &* UInt32(pixel[g]) &+ 29 &* UInt32(pixel[b])) &>> 8
                        here[x] = above[x] &+ rowSum
                        pixel += bytesPerPixel
                    }
                }
                count = stride * (height + 1)
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
        let total = sums[bottom * stride + right] &- sums[top * stride + right] &- sums[bottom * stride + left] &+ sums[top * stride + left]
        return Float(total) / Float((right - left) * (bottom - top))
    }

    /// `value` rounded into 0…`limit` (NaN to 0: a coordinate that is not a number reads the corner, not a trap).
    private static func clamp(_ value: Double, _ limit: Int) -> Int {
        guard value.isFinite else { return 0 }
        return Int(min(Double(limit), max(0, value.rounded())))
    }
}
