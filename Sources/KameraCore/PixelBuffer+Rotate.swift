import Foundation

extension PixelBuffer {
    /// The image rotated clockwise by `degrees` about its centre onto a canvas big enough to
    /// hold all of it (uncovered area filled with `fill`, one byte per channel), and the
    /// transform that maps a point of the result back to this image.
    public func rotated(byDegrees degrees: Double, fill: UInt8 = 255) -> (buffer: PixelBuffer, toSource: PerspectiveTransform) {
        let angle = degrees * .pi / 180
        let c = cos(angle), s = sin(angle)
        let w = Double(width), h = Double(height)
        // The tolerance keeps cos(90°) ≈ 6e-17 from adding a whole column.
        let outWidth = max(1, Int((abs(w * c) + abs(h * s) - 1e-6).rounded(.up)))
        let outHeight = max(1, Int((abs(w * s) + abs(h * c) - 1e-6).rounded(.up)))
        let (cx, cy) = (w / 2, h / 2)
        let (ocx, ocy) = (Double(outWidth) / 2, Double(outHeight) / 2)
        // Output → source: rotate back by -angle about the centres.
        let toSource = PerspectiveTransform(matrix: [
            c, s, cx - c * ocx - s * ocy,
            -s, c, cy + s * ocx - c * ocy,
            0, 0, 1,
        ])
        var out = PixelBuffer(
            width: outWidth, height: outHeight, format: format,
            filledWith: [UInt8](repeating: fill, count: format.bytesPerPixel))
        let bpp = format.bytesPerPixel, m = toSource.m
        // Fixed point (16 fractional bits), stepped along each output row: the per-pixel
        // work is integer adds, four loads and three lerps. The thorough barcode effort turns
        // whole photos several times, so this loop is on its hot path (it was 50 ms per
        // megapixel with a floating-point sampler per pixel, now a few).
        let one = 1 << 16, half = one >> 1
        let stepX = Int((m[0] * Double(one)).rounded()), stepY = Int((m[3] * Double(one)).rounded())
        let lowX = -half, lowY = -half, highX = (width << 16) - half, highY = (height << 16) - half
        let maxX = width - 1, maxY = height - 1, sourceStride = bytesPerRow, outStride = out.bytesPerRow
        bytes.withUnsafeBufferPointer { source in
            let src = source.baseAddress!
            out.bytes.withUnsafeMutableBufferPointer { destination in
                let dst = destination.baseAddress!
                for oy in 0..<outHeight {
                    let py = Double(oy) + 0.5
                    // Source position of this row's first pixel centre, in pixel-index space.
                    var sx = Int(((m[0] * 0.5 + m[1] * py + m[2] - 0.5) * Double(one)).rounded())
                    var sy = Int(((m[3] * 0.5 + m[4] * py + m[5] - 0.5) * Double(one)).rounded())
                    var d = dst + oy * outStride
                    for _ in 0..<outWidth {
                        // Half a pixel of slack: centres that land on the last row or column
                        // through rounding error are inside (and clamped below).
                        if sx > lowX && sy > lowY && sx < highX && sy < highY {
                            let cx = min(max(sx, 0), maxX << 16), cy = min(max(sy, 0), maxY << 16)
                            let x0 = cx >> 16, y0 = cy >> 16
                            let fx = cx & (one - 1), fy = cy & (one - 1)
                            let x1 = min(x0 + 1, maxX), y1 = min(y0 + 1, maxY)
                            let row0 = src + y0 * sourceStride, row1 = src + y1 * sourceStride
                            for ch in 0..<bpp {
                                let p00 = Int(row0[x0 * bpp + ch]), p01 = Int(row0[x1 * bpp + ch])
                                let p10 = Int(row1[x0 * bpp + ch]), p11 = Int(row1[x1 * bpp + ch])
                                let top = (p00 << 16) + (p01 - p00) * fx, bottom = (p10 << 16) + (p11 - p10) * fx
                                let value = ((top << 16) + (bottom - top) * fy + (1 << 31)) >> 32
                                d[ch] = UInt8(truncatingIfNeeded: value)
                            }
                        }
                        sx += stepX
                        sy += stepY
                        d += bpp
                    }
                }
            }
        }
        return (out, toSource)
    }
}
