/// A one-channel float image (a mask or a filter's coefficients), row by row.
struct FloatMask: Sendable {
    var width: Int
    var height: Int
    var values: [Float]

    /// The mask at `newWidth` × `newHeight`, interpolated bilinearly (pixel centres aligned,
    /// edges clamped).
    func resampled(width newWidth: Int, height newHeight: Int) -> FloatMask {
        if newWidth == width && newHeight == height { return self }
        let columns = Self.taps(newWidth, width), rows = Self.taps(newHeight, height)
        var out = [Float](repeating: 0, count: newWidth * newHeight)
        values.withUnsafeBufferPointer { source in
            out.withUnsafeMutableBufferPointer { target in
                for (y, (r0, r1, fy)) in rows.enumerated() {
                    let top = r0 * width, bottom = r1 * width
                    for (x, (c0, c1, fx)) in columns.enumerated() {
                        let upper = source[top + c0] + (source[top + c1] - source[top + c0]) * fx
                        let lower = source[bottom + c0] + (source[bottom + c1] - source[bottom + c0]) * fx
                        target[y * newWidth + x] = upper + (lower - upper) * fy
                    }
                }
            }
        }
        return FloatMask(width: newWidth, height: newHeight, values: out)
    }

    /// For each of `count` output positions, the two source positions and the weight of the
    /// second, for bilinear resampling from `source` positions (pixel centres aligned, edges
    /// clamped): shared by the masks, the background mix and redaction's blur.
    static func taps(_ count: Int, _ source: Int) -> [(Int, Int, Float)] {
        let scale = Double(source) / Double(count)
        return (0..<count).map { o in
            let position = min(max((Double(o) + 0.5) * scale - 0.5, 0), Double(source - 1))
            let low = Int(position)
            return (low, min(low + 1, source - 1), Float(position - Double(low)))
        }
    }
}
