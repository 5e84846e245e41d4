import KameraCore

/// The map between a frame's pixels and the same frame turned upright by a clockwise quarter
/// turn (a phone video's display rotation): analysis runs on the upright frame, covering on
/// the frame as stored, so the output keeps its rotation and the picture is not re-oriented.
struct QuarterTurn: Sendable {
    /// Clockwise quarter turns, 0…3.
    let turns: Int
    /// The frame's size as stored.
    let width: Double, height: Double

    /// - Parameter degrees: a multiple of 90 (anything else is taken as the nearest).
    init(degrees: Int, width: Int, height: Int) {
        turns = ((Int((Double(degrees) / 90).rounded()) % 4) + 4) % 4
        (self.width, self.height) = (Double(width), Double(height))
    }

    /// The upright frame's size.
    var uprightSize: Size { turns % 2 == 1 ? Size(width: height, height: width) : Size(width: width, height: height) }

    /// A stored-frame point in the upright frame.
    func toUpright(_ p: PixelPoint) -> PixelPoint {
        switch turns {
        case 1: PixelPoint(x: height - p.y, y: p.x)
        case 2: PixelPoint(x: width - p.x, y: height - p.y)
        case 3: PixelPoint(x: p.y, y: width - p.x)
        default: p
        }
    }

    /// An upright-frame point in the stored frame.
    func toFrame(_ p: PixelPoint) -> PixelPoint {
        switch turns {
        case 1: PixelPoint(x: p.y, y: height - p.x)
        case 2: PixelPoint(x: width - p.x, y: height - p.y)
        case 3: PixelPoint(x: width - p.y, y: p.x)
        default: p
        }
    }
}
