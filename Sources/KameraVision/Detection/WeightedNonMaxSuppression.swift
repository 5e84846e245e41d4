import KameraCore

/// MediaPipe's weighted non-maximum suppression: detections are taken best first; every
/// remaining detection overlapping the best by more than `threshold` IoU joins its cluster,
/// and the cluster's box and keypoints become the score-weighted mean (the score stays the
/// best one's). Steadier boxes than plain NMS, which keeps only the winner.
enum WeightedNonMaxSuppression {
    static func apply<Detection: KeypointDetection>(_ detections: [Detection], threshold: Double, limit: Int = .max) -> [Detection] {
        // A total order, so ties do not depend on the input order.
        var remaining = detections.sorted { ($0.score, -$0.box.x, -$0.box.y) > ($1.score, -$1.box.x, -$1.box.y) }
        var result: [Detection] = []
        while let best = remaining.first, result.count < limit {
            var cluster: [Detection] = []
            var rest: [Detection] = []
            for candidate in remaining {
                if best.box.intersectionOverUnion(candidate.box) > threshold { cluster.append(candidate) } else { rest.append(candidate) }
            }
            remaining = rest
            let total = cluster.reduce(0) { $0 + Double($1.score) }
            var merged = best
            merged.box = PixelRect(
                x: cluster.reduce(0) { $0 + $1.box.x * Double($1.score) } / total,
                y: cluster.reduce(0) { $0 + $1.box.y * Double($1.score) } / total,
                width: cluster.reduce(0) { $0 + $1.box.width * Double($1.score) } / total,
                height: cluster.reduce(0) { $0 + $1.box.height * Double($1.score) } / total)
            merged.keypoints = best.keypoints.indices.map { k in
                PixelPoint(
                    x: cluster.reduce(0) { $0 + $1.keypoints[k].x * Double($1.score) } / total,
                    y: cluster.reduce(0) { $0 + $1.keypoints[k].y * Double($1.score) } / total)
            }
            result.append(merged)
        }
        return result
    }
}

/// A detector's raw result: a box and keypoints in image pixels, and a score.
protocol KeypointDetection: Sendable {
    var box: PixelRect { get set }
    var keypoints: [PixelPoint] { get set }
    var score: Float { get }
    init(box: PixelRect, keypoints: [PixelPoint], score: Float)
}
