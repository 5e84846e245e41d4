import KameraCore

/// Anti-aliased polygon filling: exact horizontal coverage on four sub-scanlines per pixel
/// row, non-zero winding, so overlapping sub-paths of one orientation form their union.
struct CoverageRasterizer {
    static let subScanlines = 4

    /// Calls `blend(x, y, coverage)` for every pixel the polygons touch, coverage in 0…1.
    static func rasterize(_ paths: [[PixelPoint]], width: Int, height: Int, blend: (Int, Int, Double) -> Void) {
        struct Edge { var x0, y0, x1, y1: Double; var winding: Int }
        var edges: [Edge] = []
        var minY = Double.infinity, maxY = -Double.infinity
        for path in paths where path.count >= 3 {
            for i in 0..<path.count {
                let a = path[i], b = path[(i + 1) % path.count]
                guard a.y != b.y, a.x.isFinite, a.y.isFinite, b.x.isFinite, b.y.isFinite else { continue }
                edges.append(
                    a.y < b.y
                        ? Edge(x0: a.x, y0: a.y, x1: b.x, y1: b.y, winding: 1)
                        : Edge(x0: b.x, y0: b.y, x1: a.x, y1: a.y, winding: -1))
                minY = min(minY, a.y, b.y)
                maxY = max(maxY, a.y, b.y)
            }
        }
        guard !edges.isEmpty else { return }
        let rowStart = max(0, Int(minY.rounded(.down))), rowEnd = min(height - 1, Int(maxY.rounded(.up)))
        guard rowStart <= rowEnd else { return }
        var coverage = [Double](repeating: 0, count: width + 2)
        var crossings: [(x: Double, winding: Int)] = []
        let weight = 1.0 / Double(subScanlines)
        for row in rowStart...rowEnd {
            var touchedMin = width, touchedMax = -1
            for sub in 0..<subScanlines {
                let sy = Double(row) + (Double(sub) + 0.5) * weight
                crossings.removeAll(keepingCapacity: true)
                for e in edges where sy >= e.y0 && sy < e.y1 {
                    crossings.append((e.x0 + (sy - e.y0) / (e.y1 - e.y0) * (e.x1 - e.x0), e.winding))
                }
                guard crossings.count >= 2 else { continue }
                crossings.sort { $0.x < $1.x }
                var winding = 0
                for i in 0..<(crossings.count - 1) {
                    winding += crossings[i].winding
                    guard winding != 0 else { continue }
                    let xa = max(0, crossings[i].x), xb = min(Double(width), crossings[i + 1].x)
                    guard xb > xa else { continue }
                    let ia = Int(xa), ib = min(width - 1, Int(xb))
                    if ia == ib {
                        coverage[ia] += (xb - xa) * weight
                    } else {
                        coverage[ia] += (Double(ia + 1) - xa) * weight
                        if ib > ia + 1 { for x in (ia + 1)..<ib { coverage[x] += weight } }
                        coverage[ib] += (xb - Double(ib)) * weight
                    }
                    touchedMin = min(touchedMin, ia)
                    touchedMax = max(touchedMax, ib)
                }
            }
            guard touchedMax >= touchedMin else { continue }
            for x in touchedMin...touchedMax {
                let c = min(1, coverage[x])
                if c > 0.001 { blend(x, row, c) }
                coverage[x] = 0
            }
        }
    }
}
