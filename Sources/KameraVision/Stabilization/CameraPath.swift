import Foundation

/// Where the camera was on each frame, relative to the first: frame-to-frame motions chained,
/// each as shift, turn and log-scale so that they can be smoothed one by one.
struct CameraPath: Sendable {
    /// One frame's accumulated position: the transform carrying the first frame's content to
    /// this frame's, in parts.
    struct Point: Sendable, Hashable {
        var x: Double
        var y: Double
        var angle: Double
        var logScale: Double

        init(x: Double, y: Double, angle: Double, logScale: Double) {
            self.x = x
            self.y = y
            self.angle = angle
            self.logScale = logScale
        }

        init(_ transform: SimilarityTransform) {
            self.init(x: transform.translationX, y: transform.translationY, angle: transform.rotation, logScale: log(transform.scale))
        }

        var transform: SimilarityTransform {
            SimilarityTransform(scale: exp(logScale), rotation: angle, translationX: x, translationY: y)
        }

        static let zero = Point(x: 0, y: 0, angle: 0, logScale: 0)

        func plus(_ other: Point) -> Point {
            Point(x: x + other.x, y: y + other.y, angle: angle + other.angle, logScale: logScale + other.logScale)
        }

        func minus(_ other: Point) -> Point {
            Point(x: x - other.x, y: y - other.y, angle: angle - other.angle, logScale: logScale - other.logScale)
        }

        func scaled(by factor: Double) -> Point {
            Point(x: x * factor, y: y * factor, angle: angle * factor, logScale: logScale * factor)
        }

        /// `self + fraction · (other − self)`, part by part.
        func moved(toward other: Point, by fraction: Double) -> Point {
            Point(
                x: x + fraction * (other.x - x), y: y + fraction * (other.y - y), angle: angle + fraction * (other.angle - angle),
                logScale: logScale + fraction * (other.logScale - logScale))
        }
    }

    /// The next frame's point after `motion` from the last one. Motions that could not be
    /// explained (confidence 0) count as none, and turns or zooms no camera makes between two
    /// frames (a cut mis-fitted), or shifts of more than any frame's size, are refused the same way.
    static func following(_ last: SimilarityTransform, by motion: CameraMotion) -> SimilarityTransform {
        let step = motion.transform
        let plausible =
            motion.confidence > 0 && step.isFinite && abs(step.rotation) < 0.35 && abs(log(step.scale)) < 0.25
            && abs(step.translationX) < 1e5 && abs(step.translationY) < 1e5
        return plausible ? step.after(last) : last
    }

    /// The path from a first frame and the motions after it (`motions.count + 1` points).
    static func points(from motions: [CameraMotion]) -> [Point] {
        var current = SimilarityTransform.identity
        var points = [Point(current)]
        points.reserveCapacity(motions.count + 1)
        for motion in motions {
            current = following(current, by: motion)
            points.append(Point(current))
        }
        return points
    }

    /// The path at `index` smoothed over `points` (a window of the whole path starting at
    /// frame `first`): a straight line fitted with Gaussian weights (σ frames) over the frames
    /// within 3σ, read at `index`. Inside the path this is a Gaussian average; at its ends, and
    /// live where only the past and a little future exist, the line keeps a steady pan from
    /// being pulled back toward where it started.
    static func smoothed(_ points: ArraySlice<Point>, at index: Int, sigma: Double) -> Point {
        guard sigma > 0 else { return points[index] }
        let reach = Int((3 * sigma).rounded(.up))
        let low = max(points.startIndex, index - reach), high = min(points.endIndex - 1, index + reach)
        var s0 = 0.0, s1 = 0.0, s2 = 0.0
        var sum = Point.zero, moment = Point.zero
        for j in low...high {
            let d = Double(j - index), w = exp(-d * d / (2 * sigma * sigma))
            s0 += w
            s1 += w * d
            s2 += w * d * d
            sum = sum.plus(points[j].scaled(by: w))
            moment = moment.plus(points[j].scaled(by: w * d))
        }
        let determinant = s0 * s2 - s1 * s1
        guard determinant > 1e-9 * s0 * s0 else { return sum.scaled(by: 1 / s0) }
        return sum.scaled(by: s2 / determinant).minus(moment.scaled(by: s1 / determinant))
    }

    /// Each of `moves` spread over its neighbours as a Gaussian bump (σ frames) whose peak is
    /// the move itself, the bumps added up: a frame's own move is kept whole and those beside
    /// it fade smoothly to nothing.
    static func bumps(_ moves: [Point], sigma: Double) -> [Point] {
        let reach = Int((3 * sigma).rounded(.up))
        let weights = (0...reach).map { exp(-Double($0 * $0) / (2 * sigma * sigma)) }
        var out = [Point](repeating: .zero, count: moves.count)
        for (index, move) in moves.enumerated() where move != .zero {
            for j in max(0, index - reach)...min(moves.count - 1, index + reach) {
                out[j] = out[j].plus(move.scaled(by: weights[abs(j - index)]))
            }
        }
        return out
    }
}
