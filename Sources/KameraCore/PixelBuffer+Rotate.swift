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
        var out = PixelBuffer(width: outWidth, height: outHeight, format: format,
                              filledWith: [UInt8](repeating: fill, count: format.bytesPerPixel))
        let bpp = format.bytesPerPixel
        let m = toSource.m
        bytes.withUnsafeBufferPointer { src in
            let sampler = BilinearSampler(src, of: self)
            out.bytes.withUnsafeMutableBufferPointer { dst in
                for oy in 0..<outHeight {
                    let py = Double(oy) + 0.5
                    for ox in 0..<outWidth {
                        let px = Double(ox) + 0.5
                        let sx = m[0] * px + m[1] * py + m[2] - 0.5
                        let sy = m[3] * px + m[4] * py + m[5] - 0.5
                        // Half a pixel of slack: centres that land on the last row or column
                        // through rounding error are inside (the sampler clamps them).
                        guard sx > -0.5, sy > -0.5, sx < w - 0.5, sy < h - 0.5 else { continue }
                        let d = oy * out.bytesPerRow + ox * bpp
                        for ch in 0..<bpp { dst[d + ch] = UInt8(sampler.sample(x: sx, y: sy, channel: ch) + 0.5) }
                    }
                }
            }
        }
        return (out, toSource)
    }
}
