/// A one-channel float image (a mask or a filter's coefficients), row by row.
struct FloatMask: Sendable {
    var width: Int
    var height: Int
    var values: [Float]

    /// The mask at `newWidth` × `newHeight`, interpolated bilinearly (pixel centres aligned,
    /// edges clamped).
    func resampled(width newWidth: Int, height newHeight: Int) -> FloatMask {
        if newWidth == width && newHeight == height { return self }
        guard newWidth > 0, newHeight > 0 else { return FloatMask(width: max(newWidth, 0), height: max(newHeight, 0), values: []) }
        let columns = Self.taps(newWidth, width), rows = Self.taps(newHeight, height)
        // Separable: each source row a blend needs is stretched along x once (not once per
        // output row reading it), then output rows blend two stretched rows, a loop the
        // compiler vectorizes. The same sums in the same order as blending the four taps.
        var stretched = [Float](repeating: 0, count: newWidth * height)
        var needed = [Bool](repeating: false, count: height)
        for (r0, r1, _) in rows { (needed[r0], needed[r1]) = (true, true) }
        var out = [Float](repeating: 0, count: newWidth * newHeight)
        values.withUnsafeBufferPointer { source in
            stretched.withUnsafeMutableBufferPointer { stretched in
                for row in 0..<height where needed[row] {
                    let from = row * width, to = row * newWidth
                    for (x, (c0, c1, fx)) in columns.enumerated() {
                        stretched[to + x] = source[from + c0] + (source[from + c1] - source[from + c0]) * fx
                    }
                }
                out.withUnsafeMutableBufferPointer { target in
                    for (y, (r0, r1, fy)) in rows.enumerated() {
                        let upper = stretched.baseAddress! + r0 * newWidth, lower = stretched.baseAddress! + r1 * newWidth
                        let row = target.baseAddress! + y * newWidth
                        for x in 0..<newWidth { row[x] = upper[x] + (lower[x] - upper[x]) * fy }
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
