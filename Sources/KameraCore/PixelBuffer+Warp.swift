extension PixelBuffer {
    /// Draws `source` onto this buffer so that its corners land on `quad`, with bilinear
    /// sampling and 2×2 supersampling at the quad's edges. Formats must match.
    public mutating func composite(_ source: PixelBuffer, onto quad: Quad) {
        precondition(source.format == format, "composite needs matching pixel formats")
        let srcCorners = [PixelPoint(x: 0, y: 0), PixelPoint(x: Double(source.width), y: 0),
                          PixelPoint(x: Double(source.width), y: Double(source.height)),
                          PixelPoint(x: 0, y: Double(source.height))]
        guard let forward = PerspectiveTransform(from: srcCorners, to: quad.corners),
              let inverse = forward.inverse else { return }
        let bounds = quad.boundingRect
        let x0 = max(0, Int(bounds.minX.rounded(.down))), x1 = min(width, Int(bounds.maxX.rounded(.up)) + 1)
        let y0 = max(0, Int(bounds.minY.rounded(.down))), y1 = min(height, Int(bounds.maxY.rounded(.up)) + 1)
        guard x1 > x0, y1 > y0 else { return }
        let bpp = format.bytesPerPixel
        let offsets: [(Double, Double)] = [(0.25, 0.25), (0.75, 0.25), (0.25, 0.75), (0.75, 0.75)]
        var sample = [Double](repeating: 0, count: bpp)
        for y in y0..<y1 {
            for x in x0..<x1 {
                for c in 0..<bpp { sample[c] = 0 }
                var covered = 0
                for (dx, dy) in offsets {
                    let p = inverse.apply(PixelPoint(x: Double(x) + dx, y: Double(y) + dy))
                    guard p.x >= 0, p.y >= 0, p.x < Double(source.width), p.y < Double(source.height) else { continue }
                    covered += 1
                    source.accumulateBilinear(at: p, into: &sample)
                }
                guard covered > 0 else { continue }
                let coverage = Double(covered) / 4
                let base = index(x: x, y: y)
                for c in 0..<bpp {
                    let value = sample[c] / Double(covered)
                    let blended = Double(bytes[base + c]) * (1 - coverage) + value * coverage
                    bytes[base + c] = UInt8(max(0, min(255, blended.rounded())))
                }
            }
        }
    }

    /// Adds the bilinear sample at pixel-space point `p` (pixel centres at +0.5) to `sum`.
    func accumulateBilinear(at p: PixelPoint, into sum: inout [Double]) {
        let fx = max(0, min(Double(width - 1), p.x - 0.5)), fy = max(0, min(Double(height - 1), p.y - 0.5))
        let ix = Int(fx), iy = Int(fy)
        let jx = min(ix + 1, width - 1), jy = min(iy + 1, height - 1)
        let wx = fx - Double(ix), wy = fy - Double(iy)
        let bpp = format.bytesPerPixel
        for c in 0..<bpp {
            let p00 = Double(bytes[iy * bytesPerRow + ix * bpp + c]), p01 = Double(bytes[iy * bytesPerRow + jx * bpp + c])
            let p10 = Double(bytes[jy * bytesPerRow + ix * bpp + c]), p11 = Double(bytes[jy * bytesPerRow + jx * bpp + c])
            sum[c] += (p00 * (1 - wx) + p01 * wx) * (1 - wy) + (p10 * (1 - wx) + p11 * wx) * wy
        }
    }
}
