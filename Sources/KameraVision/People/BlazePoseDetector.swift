import Foundation
import KameraCore
import KameraNN

/// MediaPipe's BlazePose person detector run by KameraNN: the image letterboxed into the
/// 224² model, SSD outputs decoded against its 2,254 anchors, overlapping detections merged
/// (weighted non-maximum suppression), boxes and keypoints in image pixels.
struct BlazePoseDetector: Sendable {
    static let inputSize = 224
    static let anchors = SSDAnchors.centers(width: 224, height: 224, strides: [8, 16, 32, 32, 32], anchorsPerLayer: 2)
    /// MediaPipe's thresholds for this graph.
    static let minimumScore: Float = 0.5
    static let overlap = 0.3

    private let sessions: InferenceSessionPool
    private let outputs: (regressors: Int, scores: Int)

    init(models: ModelStore) throws {
        sessions = try models.sessions(.poseDetection)
        let shapes = sessions.network.outputShapes
        let regressors = shapes.firstIndex { $0.last == 12 } ?? 0, scores = shapes.firstIndex { $0.last == 1 } ?? 1
        guard shapes.count == 2, shapes[regressors] == [1, Self.anchors.count, 12], shapes[scores] == [1, Self.anchors.count, 1]
        else { throw KameraError.invalidModel(path: sessions.network.path, reason: "unexpected outputs \(shapes)") }
        outputs = (regressors, scores)
    }

    /// The people in the sampler's image, best first, at most `limit`.
    func detect(in sampler: TensorSampler, minimumScore: Float = minimumScore, limit: Int) -> [PersonDetection] {
        let image = sampler.image
        let side = Double(max(image.width, image.height))
        // The whole image in the middle of a square (MediaPipe's letterbox: the rest reads black).
        let region = RotatedRect(
            center: PixelPoint(x: Double(image.width) / 2 - 0.5, y: Double(image.height) / 2 - 0.5), width: side, height: side,
            angle: 0)
        let size = Self.inputSize
        let found = sessions.withSession { session -> [PersonDetection] in
            session.withInput { sampler.sample(region, into: $0, width: size, height: size, range: -1...1) }
            session.invoke()
            let logitThreshold = log(minimumScore / (1 - minimumScore))
            let scores = session.output(outputs.scores), boxes = session.output(outputs.regressors)
            var detections: [PersonDetection] = []
            for (i, anchor) in Self.anchors.enumerated() {
                let logit = min(max(scores[i], -100), 100)
                guard logit >= logitThreshold else { continue }
                let raw = boxes.baseAddress! + i * 12
                func point(_ x: Float, _ y: Float) -> PixelPoint {
                    region.imagePoint(u: Double(x + anchor.x) / Double(size), v: Double(y + anchor.y) / Double(size))
                }
                let center = point(raw[0], raw[1])
                let w = Double(raw[2]) / Double(size) * side, h = Double(raw[3]) / Double(size) * side
                guard w > 0, h > 0, w.isFinite, h.isFinite else { continue }
                detections.append(
                    PersonDetection(
                        box: PixelRect(x: center.x - w / 2, y: center.y - h / 2, width: w, height: h),
                        keypoints: (0..<4).map { point(raw[4 + 2 * $0], raw[5 + 2 * $0]) }, score: 1 / (1 + exp(-logit))))
            }
            return detections
        }
        return WeightedNonMaxSuppression.apply(found, threshold: Self.overlap, limit: limit)
    }
}
