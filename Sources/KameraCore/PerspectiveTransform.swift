/// A planar homography: maps points of one plane to another with perspective.
public struct PerspectiveTransform: Sendable, Hashable {
    /// Row-major 3×3 matrix; `m[8]` is normalized to 1.
    public var m: [Double]

    public init(matrix: [Double]) {
        precondition(matrix.count == 9, "a homography has 9 entries")
        m = matrix
    }

    /// The transform that maps each of `from` to the matching point of `to`
    /// (four points each, no three collinear). Returns nil for degenerate input.
    public init?(from: [PixelPoint], to: [PixelPoint]) {
        guard from.count == 4, to.count == 4 else { return nil }
        // Solve the 8×8 system A h = b for h = (h0…h7), h8 = 1.
        var a = [[Double]](repeating: [Double](repeating: 0, count: 9), count: 8)
        for i in 0..<4 {
            let (x, y, u, v) = (from[i].x, from[i].y, to[i].x, to[i].y)
            a[2 * i] = [x, y, 1, 0, 0, 0, -u * x, -u * y, u]
            a[2 * i + 1] = [0, 0, 0, x, y, 1, -v * x, -v * y, v]
        }
        for col in 0..<8 {
            guard let pivot = (col..<8).max(by: { abs(a[$0][col]) < abs(a[$1][col]) }),
                abs(a[pivot][col]) > 1e-12
            else { return nil }
            a.swapAt(col, pivot)
            for row in 0..<8 where row != col {
                let f = a[row][col] / a[col][col]
                if f == 0 { continue }
                for k in col..<9 { a[row][k] -= f * a[col][k] }
            }
        }
        m = (0..<8).map { a[$0][8] / a[$0][$0] } + [1]
    }

    /// The transform that leaves every point where it is.
    public static let identity = PerspectiveTransform(matrix: [1, 0, 0, 0, 1, 0, 0, 0, 1])

    /// Scales both axes by `factor` about the origin.
    public static func scaling(_ factor: Double) -> PerspectiveTransform {
        PerspectiveTransform(matrix: [factor, 0, 0, 0, factor, 0, 0, 0, 1])
    }

    /// Mirrors pixel coordinates of an image of `size`: x → width − x, y → height − y.
    public static func flipping(_ size: Size, horizontally: Bool, vertically: Bool) -> PerspectiveTransform {
        PerspectiveTransform(matrix: [
            horizontally ? -1 : 1, 0, horizontally ? size.width : 0,
            0, vertically ? -1 : 1, vertically ? size.height : 0, 0, 0, 1,
        ])
    }

    /// The transform that applies `first`, then this one.
    public func composed(after first: PerspectiveTransform) -> PerspectiveTransform {
        var product = [Double](repeating: 0, count: 9)
        for r in 0..<3 {
            for c in 0..<3 {
                var sum = 0.0
                for k in 0..<3 { sum += m[r * 3 + k] * first.m[k * 3 + c] }
                product[r * 3 + c] = sum
            }
        }
        return PerspectiveTransform(matrix: product.map { $0 / product[8] })
    }

    /// Applies the transform to `p`.
    public func apply(_ p: PixelPoint) -> PixelPoint {
        let w = m[6] * p.x + m[7] * p.y + m[8]
        return PixelPoint(x: (m[0] * p.x + m[1] * p.y + m[2]) / w, y: (m[3] * p.x + m[4] * p.y + m[5]) / w)
    }

    /// The inverse transform, or nil if singular.
    public var inverse: PerspectiveTransform? {
        let a = m
        let det = a[0] * (a[4] * a[8] - a[5] * a[7]) - a[1] * (a[3] * a[8] - a[5] * a[6]) + a[2] * (a[3] * a[7] - a[4] * a[6])
        guard abs(det) > 1e-15 else { return nil }
        let inv = [
            a[4] * a[8] - a[5] * a[7], a[2] * a[7] - a[1] * a[8], a[1] * a[5] - a[2] * a[4],
            a[5] * a[6] - a[3] * a[8], a[0] * a[8] - a[2] * a[6], a[2] * a[3] - a[0] * a[5],
            a[3] * a[7] - a[4] * a[6], a[1] * a[6] - a[0] * a[7], a[0] * a[4] - a[1] * a[3],
        ].map { $0 / det }
        return PerspectiveTransform(matrix: inv.map { $0 / inv[8] })
    }
}
