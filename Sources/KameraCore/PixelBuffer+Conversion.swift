extension PixelBuffer {
    /// The same image in another pixel format. Gray uses BT.601 luma
    /// (0.299 R + 0.587 G + 0.114 B, integer arithmetic); alpha is dropped when the target
    /// has none and set opaque when the source has none.
    public func converted(to target: PixelFormat) -> PixelBuffer {
        if target == format { return self }
        var out = PixelBuffer(width: width, height: height, format: target)
        let src = format, sbpp = src.bytesPerPixel, dbpp = target.bytesPerPixel
        let so = src.rgbOffsets, dOff = target.rgbOffsets
        let sAlpha = src.alphaOffset, dAlpha = target.alphaOffset
        bytes.withUnsafeBufferPointer { s in
            out.bytes.withUnsafeMutableBufferPointer { d in
                for y in 0..<height {
                    var si = y * bytesPerRow
                    var di = y * out.bytesPerRow
                    if target == .gray8 {
                        if src == .gray8 { continue }
                        for _ in 0..<width {
                            // 16-bit fixed point weights summing to 65536.
                            let r = UInt32(s[si + so.r]), g = UInt32(s[si + so.g]), b = UInt32(s[si + so.b])
                            d[di] = UInt8((r * 19595 + g * 38470 + b * 7471 + 32768) >> 16)
                            si += sbpp
                            di += 1
                        }
                    } else {
                        for _ in 0..<width {
                            let r = s[si + so.r], g = s[si + so.g], b = s[si + so.b]
                            d[di + dOff.r] = r
                            d[di + dOff.g] = g
                            d[di + dOff.b] = b
                            if let da = dAlpha { d[di + da] = sAlpha.map { s[si + $0] } ?? 255 }
                            si += sbpp
                            di += dbpp
                        }
                    }
                }
            }
        }
        return out
    }

    /// Light becomes dark and dark light (alpha is kept).
    public func inverted() -> PixelBuffer {
        var out = self
        let alpha = format.alphaOffset
        let bpp = format.bytesPerPixel
        out.bytes.withUnsafeMutableBufferPointer { p in
            for y in 0..<height {
                for x in 0..<width {
                    let base = y * bytesPerRow + x * bpp
                    for c in 0..<bpp where c != alpha { p[base + c] = 255 &- p[base + c] }
                }
            }
        }
        return out
    }
}
