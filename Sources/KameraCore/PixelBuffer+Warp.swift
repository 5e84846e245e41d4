extension PixelBuffer {
    /// Draws `source` onto this buffer so that its corners land on `quad`, with bilinear
    /// sampling and 2×2 supersampling at the quad's edges. Formats must match.
    public mutating func composite(_ source: PixelBuffer, onto quad: Quad) {
        precondition(source.format == format, "composite needs matching pixel formats")
        let srcCorners = [
            PixelPoint(x: 0, y: 0), PixelPoint(x: Double(source.width), y: 0),
            PixelPoint(x: Double(source.width), y: Double(source.height)),
            PixelPoint(x: 0, y: Double(source.height)),
        ]
        guard let forward = PerspectiveTransform(from: srcCorners, to: quad.corners),
            let inverse = forward.inverse
        else { return }
        let bounds = quad.boundingRect
        let x0 = max(0, Int(bounds.minX.rounded(.down))), x1 = min(width, Int(bounds.maxX.rounded(.up)) + 1)
        let y0 = max(0, Int(bounds.minY.rounded(.down))), y1 = min(height, Int(bounds.maxY.rounded(.up)) + 1)
        guard x1 > x0, y1 > y0 else { return }
        let bpp = format.bytesPerPixel
        let offsets: [(Double, Double)] = [(0.25, 0.25), (0.75, 0.25), (0.25, 0.75), (0.75, 0.75)]
        var sample = [Double](repeating: 0, count: bpp)
        let stride = bytesPerRow
        source.bytes.withUnsafeBufferPointer { sourcePixels in
            let sampler = BilinearSampler(sourcePixels, of: source)
            bytes.withUnsafeMutableBufferPointer { target in
                for y in y0..<y1 {
                    for x in x0..<x1 {
                        for c in 0..<bpp { sample[c] = 0 }
                        var covered = 0
                        for (dx, dy) in offsets {
                            let p = inverse.apply(PixelPoint(x: Double(x) + dx, y: Double(y) + dy))
                            guard p.x >= 0, p.y >= 0, p.x < Double(source.width), p.y < Double(source.height) else { continue }
                            covered += 1
                            // Pixel centres sit at +0.5 in continuous coordinates.
                            for c in 0..<bpp { sample[c] += sampler.sample(x: p.x - 0.5, y: p.y - 0.5, channel: c) }
                        }
                        guard covered > 0 else { continue }
                        let coverage = Double(covered) / 4
                        let base = y * stride + x * bpp
                        for c in 0..<bpp {
                            let blended = Double(target[base + c]) * (1 - coverage) + sample[c] / Double(covered) * coverage
                            target[base + c] = UInt8(max(0, min(255, blended.rounded())))
                        }
                    }
                }
            }
        }
    }
}
