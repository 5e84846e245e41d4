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
            out.bytes.withUnsafeMutableBufferPointer { dst in
                for oy in 0..<outHeight {
                    let py = Double(oy) + 0.5
                    for ox in 0..<outWidth {
                        let px = Double(ox) + 0.5
                        var sx = m[0] * px + m[1] * py + m[2] - 0.5
                        var sy = m[3] * px + m[4] * py + m[5] - 0.5
                        // Half a pixel of slack: centres that land on the last row or column
                        // through rounding error are inside.
                        guard sx > -0.5, sy > -0.5, sx < w - 0.5, sy < h - 0.5 else { continue }
                        sx = min(max(sx, 0), w - 1)
                        sy = min(max(sy, 0), h - 1)
                        let ix = Int(sx), iy = Int(sy)
                        let jx = min(ix + 1, width - 1), jy = min(iy + 1, height - 1)
                        let fx = sx - Double(ix), fy = sy - Double(iy)
                        let d = oy * out.bytesPerRow + ox * bpp
                        for ch in 0..<bpp {
                            let p00 = Double(src[iy * bytesPerRow + ix * bpp + ch])
                            let p01 = Double(src[iy * bytesPerRow + jx * bpp + ch])
                            let p10 = Double(src[jy * bytesPerRow + ix * bpp + ch])
                            let p11 = Double(src[jy * bytesPerRow + jx * bpp + ch])
                            let v = (p00 * (1 - fx) + p01 * fx) * (1 - fy) + (p10 * (1 - fx) + p11 * fx) * fy
                            dst[d + ch] = UInt8(v + 0.5)
                        }
                    }
                }
            }
        }
        return (out, toSource)
    }
}
