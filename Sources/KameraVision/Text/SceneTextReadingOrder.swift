import Foundation
import KameraCore

/// Where the scene reader's lines go in reading order, and which pieces are one line.
extension SceneTextReader {
    /// Lines in reading order: along the text's common slant (the median of the lines'
    /// directions), rows of lines that overlap across it top to bottom, each row left to
    /// right — sorting by the top-left corner alone interleaves the pieces of tilted rows.
    /// Pieces of one row side by side, level, and less than a line's height apart are joined
    /// into one line: the detector splits some lines inside a word (and both pieces then read
    /// the letter cut in two: "liquor j" + "jugs!") or at a wide space.
    static func readingOrder(_ quads: [Quad]) -> [Quad] {
        guard quads.count > 1, let angle = commonSlant(quads) else { return quads }
        let (along, across) = ((cos(angle), sin(angle)), (-sin(angle), cos(angle)))
        struct Placed {
            var quad: Quad, top: Double, bottom: Double, start: Double, end: Double
            /// Whether the line runs along the common slant (within 5°).
            var aligned: Bool
            var thickness: Double { bottom - top }
        }
        let placed = quads.map { q -> Placed in
            let points = q.corners
            let a = points.map { $0.x * across.0 + $0.y * across.1 }, s = points.map { $0.x * along.0 + $0.y * along.1 }
            return Placed(
                quad: q, top: a.min()!, bottom: a.max()!, start: s.min()!, end: s.max()!,
                aligned: abs(remainder(slant(q) - angle, .pi)) < 5 * .pi / 180)
        }
        var rows: [[Placed]] = []
        for line in placed.sorted(by: { $0.top + $0.bottom < $1.top + $1.bottom }) {
            // Joins the last row when their spans across the text overlap by half the smaller.
            if let row = rows.last, let last = row.last {
                let overlap = min(line.bottom, last.bottom) - max(line.top, last.top)
                if overlap > 0.5 * min(line.thickness, last.thickness) {
                    rows[rows.count - 1].append(line)
                    continue
                }
            }
            rows.append([line])
        }
        func point(_ s: Double, _ a: Double) -> PixelPoint { PixelPoint(x: s * along.0 + a * across.0, y: s * along.1 + a * across.1) }
        return rows.flatMap { row -> [Quad] in
            var joined: [Placed] = []
            for line in row.sorted(by: { $0.start < $1.start }) {
                // Pieces of one line: along the slant, side by side (a word's gap apart at most;
                // overlapping by up to a height, as the boxes are grown by about half of one)
                // and level with each other.
                let (thin, thick) = (min(line.thickness, joined.last?.thickness ?? 0), max(line.thickness, joined.last?.thickness ?? 0))
                // (A sliver inside the line's height, a piece of a letter, joins whatever its size.)
                let level = min(line.bottom, joined.last?.bottom ?? 0) - max(line.top, joined.last?.top ?? 0)
                if var last = joined.last, line.aligned, last.aligned, line.start - last.end < thin,
                    line.start - last.end > -thin, thick < 1.6 * thin || level > 0.9 * thin, level > 0.7 * thin
                {
                    (last.top, last.bottom) = (min(last.top, line.top), max(last.bottom, line.bottom))
                    (last.start, last.end) = (min(last.start, line.start), max(last.end, line.end))
                    last.quad = Quad(
                        topLeft: point(last.start, last.top), topRight: point(last.end, last.top),
                        bottomRight: point(last.end, last.bottom), bottomLeft: point(last.start, last.bottom))
                    joined[joined.count - 1] = last
                } else {
                    joined.append(line)
                }
            }
            return joined.map(\.quad)
        }
    }

    /// The direction of a line's longer side, in (−π/2, π/2] (image axes, y down).
    static func slant(_ q: Quad) -> Double {
        let (top, side) = (q.topRight - q.topLeft, q.bottomLeft - q.topLeft)
        let long = hypot(top.x, top.y) >= hypot(side.x, side.y) ? top : side
        let angle = atan2(long.y, long.x)
        return angle > .pi / 2 ? angle - .pi : angle <= -.pi / 2 ? angle + .pi : angle
    }

    /// The median slant of the lines (nil for none).
    static func commonSlant(_ quads: [Quad]) -> Double? {
        let angles = quads.map(slant).sorted()
        return angles.isEmpty ? nil : angles[angles.count / 2]
    }
}
