extension PixelBuffer {
    /// The image scaled to `width` × `height`. Downscaling averages every source pixel
    /// that falls in a destination pixel (no aliasing); upscaling interpolates bilinearly.
    public func resized(width newWidth: Int, height newHeight: Int) -> PixelBuffer {
        precondition(newWidth > 0 && newHeight > 0, "resize target must be positive")
        if newWidth == width && newHeight == height { return self }
        if newWidth <= width && newHeight <= height {
            return areaAveraged(width: newWidth, height: newHeight)
        }
        return bilinear(width: newWidth, height: newHeight)
    }

    /// The image scaled so that its longer side is at most `maximumDimension` (never enlarged).
    public func fitting(maximumDimension: Int) -> PixelBuffer {
        let longer = max(width, height)
        guard longer > maximumDimension else { return self }
        let scale = Double(maximumDimension) / Double(longer)
        return resized(
            width: max(1, Int((Double(width) * scale).rounded())),
            height: max(1, Int((Double(height) * scale).rounded())))
    }

    private func bilinear(width newWidth: Int, height newHeight: Int) -> PixelBuffer {
        var out = PixelBuffer(width: newWidth, height: newHeight, format: format)
        let bpp = format.bytesPerPixel
        // Separable, in 8-bit fixed point: each output column's two source columns and weight
        // are the same on every row, so they are worked out once (pixel centres aligned).
        func taps(_ count: Int, from source: Int) -> [(Int, Int, Int)] {
            let scale = Double(source) / Double(count)
            return (0..<count).map { o in
                let f = max(0, (Double(o) + 0.5) * scale - 0.5)
                let i = min(Int(f), source - 1)
                return (i, min(i + 1, source - 1), Int(((f - Double(i)) * 256).rounded()))
            }
        }
        let columns = taps(newWidth, from: width), rows = taps(newHeight, from: height)
        bytes.withUnsafeBufferPointer { s in
            out.bytes.withUnsafeMutableBufferPointer { d in
                for (oy, (y0, y1, wy)) in rows.enumerated() {
                    let top = y0 * bytesPerRow, bottom = y1 * bytesPerRow, outRow = oy * out.bytesPerRow
                    for (ox, (x0, x1, wx)) in columns.enumerated() {
                        let a = x0 * bpp, b = x1 * bpp, o = outRow + ox * bpp
                        for c in 0..<bpp {
                            let upper = Int(s[top + a + c]) * (256 - wx) + Int(s[top + b + c]) * wx
                            let lower = Int(s[bottom + a + c]) * (256 - wx) + Int(s[bottom + b + c]) * wx
                            d[o + c] = UInt8(truncatingIfNeeded: (upper * (256 - wy) + lower * wy + 32768) >> 16)
                        }
                    }
                }
            }
        }
        return out
    }

    private func areaAveraged(width newWidth: Int, height newHeight: Int) -> PixelBuffer {
        var out = PixelBuffer(width: newWidth, height: newHeight, format: format)
        let bpp = format.bytesPerPixel
        // Fractional box filter: each destination pixel covers [x*sx, (x+1)*sx) of the source.
        let sx = Double(width) / Double(newWidth), sy = Double(height) / Double(newHeight)
        // The horizontal footprint is the same on every row: source columns and weights per
        // destination column, computed once.
        var spans: [(first: Int, weights: [Double])] = []
        for ox in 0..<newWidth {
            let fx0 = Double(ox) * sx, fx1 = fx0 + sx
            var x = Int(fx0), weights: [Double] = []
            while Double(x) < fx1 && x < width {
                weights.append(min(fx1, Double(x + 1)) - max(fx0, Double(x)))
                x += 1
            }
            spans.append((Int(fx0), weights))
        }
        var acc = [Double](repeating: 0, count: newWidth * bpp)
        let norm = 1 / (sx * sy)
        bytes.withUnsafeBufferPointer { s in
            out.bytes.withUnsafeMutableBufferPointer { d in
                acc.withUnsafeMutableBufferPointer { acc in
                    for oy in 0..<newHeight {
                        acc.update(repeating: 0)
                        let fy0 = Double(oy) * sy, fy1 = fy0 + sy
                        var y = Int(fy0)
                        while Double(y) < fy1 && y < height {
                            let wy = min(fy1, Double(y + 1)) - max(fy0, Double(y))
                            let row = y * bytesPerRow
                            for ox in 0..<newWidth {
                                let span = spans[ox]
                                for (k, wx) in span.weights.enumerated() {
                                    let w = wy * wx, source = row + (span.first + k) * bpp
                                    for c in 0..<bpp { acc[ox * bpp + c] += w * Double(s[source + c]) }
                                }
                            }
                            y += 1
                        }
                        for ox in 0..<newWidth {
                            for c in 0..<bpp {
                                d[oy * out.bytesPerRow + ox * bpp + c] = UInt8(max(0, min(255, (acc[ox * bpp + c] * norm).rounded())))
                            }
                        }
                    }
                }
            }
        }
        return out
    }
}
