import Foundation
import KameraCore
import KameraNN

/// MediaPipe's palm detector (full) run by KameraNN: the image letterboxed into the 192²
/// model, SSD outputs decoded against its 2,016 anchors, overlapping palms merged.
struct PalmDetector: Sendable {
    static let inputSize = 192
    static let anchors = SSDAnchors.centers(width: 192, height: 192, strides: [8, 16, 16, 16], anchorsPerLayer: 2)
    static let minimumScore: Float = 0.5
    static let overlap = 0.3

    private let sessions: InferenceSessionPool
    private let outputs: (regressors: Int, scores: Int)

    init(models: ModelStore) throws {
        sessions = try models.sessions(.palmDetectionFull)
        let shapes = sessions.network.outputShapes
        let regressors = shapes.firstIndex { $0.last == 18 } ?? 0, scores = shapes.firstIndex { $0.last == 1 } ?? 1
        guard shapes.count == 2, shapes[regressors] == [1, Self.anchors.count, 18], shapes[scores] == [1, Self.anchors.count, 1]
        else { throw KameraError.invalidModel(path: sessions.network.path, reason: "unexpected outputs \(shapes)") }
        outputs = (regressors, scores)
    }

    /// The palms in the sampler's image, best first, at most `limit`.
    func detect(in sampler: TensorSampler, limit: Int) -> [HandDetection] {
        let image = sampler.image
        let side = Double(max(image.width, image.height))
        let region = RotatedRect(
            center: PixelPoint(x: Double(image.width) / 2 - 0.5, y: Double(image.height) / 2 - 0.5), width: side, height: side,
            angle: 0)
        let size = Self.inputSize
        let found = sessions.withSession { session -> [HandDetection] in
            session.withInput { sampler.sample(region, into: $0, width: size, height: size, range: 0...1) }
            session.invoke()
            let logitThreshold = log(Self.minimumScore / (1 - Self.minimumScore))
            let scores = session.output(outputs.scores), boxes = session.output(outputs.regressors)
            var palms: [HandDetection] = []
            for (i, anchor) in Self.anchors.enumerated() {
                let logit = min(max(scores[i], -100), 100)
                guard logit >= logitThreshold else { continue }
                let raw = boxes.baseAddress! + i * 18
                func point(_ x: Float, _ y: Float) -> PixelPoint {
                    region.imagePoint(u: Double(x + anchor.x) / Double(size), v: Double(y + anchor.y) / Double(size))
                }
                let center = point(raw[0], raw[1])
                let w = Double(raw[2]) / Double(size) * side, h = Double(raw[3]) / Double(size) * side
                guard w > 0, h > 0, w.isFinite, h.isFinite else { continue }
                palms.append(
                    HandDetection(
                        box: PixelRect(x: center.x - w / 2, y: center.y - h / 2, width: w, height: h),
                        keypoints: (0..<7).map { point(raw[4 + 2 * $0], raw[5 + 2 * $0]) }, score: 1 / (1 + exp(-logit))))
            }
            return palms
        }
        return WeightedNonMaxSuppression.apply(found, threshold: Self.overlap, limit: limit)
    }
}
