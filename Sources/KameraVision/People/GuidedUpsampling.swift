import KameraCore

/// Brings a low-resolution mask to the guide image's size along the guide's own edges: He,
/// Sun and Tang's guided filter, solved at a working resolution and applied at full size (the
/// "fast guided filter"). Where the image has an edge the mask follows it; where the image is
/// flat the mask stays smooth. The box radius and regularisation are set for a person mask:
/// a strand of hair against the sky keeps its outline, noise does not.
enum GuidedUpsampling {
    /// The longest side the filter's coefficients are solved at.
    static let workingSize = 512
    /// Box radius at the working size, and the regularisation (guide values in 0…1).
    static let radius = 6
    static let epsilon: Float = 1e-3

    static func upsample(_ mask: FloatMask, along gray: PixelBuffer) -> FloatMask {
        let scale = min(1, Double(workingSize) / Double(max(gray.width, gray.height)))
        let (w, h) = (max(1, Int((Double(gray.width) * scale).rounded())), max(1, Int((Double(gray.height) * scale).rounded())))
        let guide = floats(gray.resized(width: w, height: h))
        let p = mask.resampled(width: w, height: h).values
        let meanI = boxMean(guide, w, h), meanP = boxMean(p, w, h)
        let meanIP = boxMean(zip(guide, p).map(*), w, h), meanII = boxMean(guide.map { $0 * $0 }, w, h)
        var a = [Float](repeating: 0, count: w * h), b = a
        for i in 0..<(w * h) {
            let variance = meanII[i] - meanI[i] * meanI[i], covariance = meanIP[i] - meanI[i] * meanP[i]
            a[i] = covariance / (variance + epsilon)
            b[i] = meanP[i] - a[i] * meanI[i]
        }
        let meanA = FloatMask(width: w, height: h, values: boxMean(a, w, h)).resampled(width: gray.width, height: gray.height)
        let meanB = FloatMask(width: w, height: h, values: boxMean(b, w, h)).resampled(width: gray.width, height: gray.height)
        var out = [Float](repeating: 0, count: gray.width * gray.height)
        gray.bytes.withUnsafeBufferPointer { bytes in
            for y in 0..<gray.height {
                let row = y * gray.bytesPerRow, at = y * gray.width
                for x in 0..<gray.width {
                    let q = meanA.values[at + x] * Float(bytes[row + x]) / 255 + meanB.values[at + x]
                    out[at + x] = min(max(q, 0), 1)
                }
            }
        }
        return FloatMask(width: gray.width, height: gray.height, values: out)
    }

    private static func floats(_ gray: PixelBuffer) -> [Float] {
        var values = [Float](repeating: 0, count: gray.width * gray.height)
        for y in 0..<gray.height {
            for x in 0..<gray.width { values[y * gray.width + x] = Float(gray.bytes[y * gray.bytesPerRow + x]) / 255 }
        }
        return values
    }

    /// The mean over the (2·radius+1)² box round each value, the box clipped at the edges,
    /// from a summed-area table.
    private static func boxMean(_ values: [Float], _ w: Int, _ h: Int) -> [Float] {
        var table = [Double](repeating: 0, count: (w + 1) * (h + 1))
        for y in 0..<h {
            var row = 0.0
            for x in 0..<w {
                row += Double(values[y * w + x])
                table[(y + 1) * (w + 1) + x + 1] = table[y * (w + 1) + x + 1] + row
            }
        }
        var out = [Float](repeating: 0, count: w * h)
        for y in 0..<h {
            let (y0, y1) = (max(0, y - radius), min(h, y + radius + 1))
            for x in 0..<w {
                let (x0, x1) = (max(0, x - radius), min(w, x + radius + 1))
                let sum = table[y1 * (w + 1) + x1] - table[y0 * (w + 1) + x1] - table[y1 * (w + 1) + x0] + table[y0 * (w + 1) + x0]
                out[y * w + x] = Float(sum / Double((y1 - y0) * (x1 - x0)))
            }
        }
        return out
    }
}
