import Foundation
import KameraCore
import KameraNN

/// One of MediaPipe's BlazeFace detectors run by KameraNN: letterboxes a square image region
/// into the model, decodes the SSD outputs against the anchors and maps boxes and keypoints
/// back to image pixels. Sessions come from the model's shared pool.
struct BlazeFaceDetector: Sendable {
    /// Which BlazeFace model.
    enum Variant: Sendable {
        case shortRange, fullRange

        var model: KameraModel { self == .shortRange ? .faceDetectionShortRange : .faceDetectionFullRange }
        var inputSize: Int { self == .shortRange ? 128 : 192 }
        /// MediaPipe's thresholds for these graphs.
        var minimumScore: Float { self == .shortRange ? 0.5 : 0.6 }
        /// Anchor centres, computed once per process.
        var anchors: [(x: Float, y: Float)] { self == .shortRange ? Self.shortRangeAnchors : Self.fullRangeAnchors }
        private static let shortRangeAnchors = SSDAnchors.centers(inputSize: 128, strides: [8, 16, 16, 16], anchorsPerLayer: 2)
        private static let fullRangeAnchors = SSDAnchors.centers(inputSize: 192, strides: [4], anchorsPerLayer: 1)
    }

    let variant: Variant
    private let sessions: InferenceSessionPool
    private let anchors: [(x: Float, y: Float)]
    private let regressorsIndex: Int
    private let scoresIndex: Int

    init(_ variant: Variant, models: ModelStore) throws {
        self.variant = variant
        sessions = try models.sessions(variant.model)
        let network = sessions.network
        anchors = variant.anchors
        // Outputs are [1, anchors, 16] box regressors and [1, anchors, 1] scores, in either order.
        regressorsIndex = network.outputShapes.firstIndex { $0.last == 16 } ?? 0
        scoresIndex = network.outputShapes.firstIndex { $0.last == 1 } ?? 1
        guard network.outputShapes[regressorsIndex] == [1, anchors.count, 16],
            network.outputShapes[scoresIndex] == [1, anchors.count, 1]
        else {
            throw KameraError.invalidModel(path: network.path, reason: "unexpected outputs \(network.outputShapes)")
        }
    }

    /// Detects faces in `region` (an axis-aligned square in image pixels; parts outside the
    /// image read as black, which is MediaPipe's letterbox). `minimumScore` defaults to the
    /// variant's.
    func detect(in sampler: TensorSampler, region: PixelRect, minimumScore: Float? = nil) -> [FaceDetection] {
        detect(
            in: sampler, region: RotatedRect(center: region.center, width: region.width, height: region.height, angle: 0),
            minimumScore: minimumScore)
    }

    /// Detects faces in a turned square region; boxes come back face-sized and axis-aligned
    /// around the face centre, keypoints in image pixels.
    func detect(in sampler: TensorSampler, region: RotatedRect, minimumScore: Float? = nil) -> [FaceDetection] {
        sessions.withSession { session in
            decode(session, sampler: sampler, rect: region, minimumScore: minimumScore)
        }
    }

    private func decode(_ session: InferenceSession, sampler: TensorSampler, rect: RotatedRect, minimumScore: Float?) -> [FaceDetection] {
        let size = variant.inputSize
        session.withInput { sampler.sample(rect, into: $0, width: size, height: size, range: -1...1) }
        session.invoke()
        let threshold = minimumScore ?? variant.minimumScore
        // Scores are logits; compare in logit space and take the sigmoid only for hits.
        let logitThreshold = log(threshold / (1 - threshold))
        let scores = session.output(scoresIndex), boxes = session.output(regressorsIndex)
        let scale = Float(size)
        var detections: [FaceDetection] = []
        for i in 0..<anchors.count {
            let logit = min(max(scores[i], -100), 100)
            guard logit >= logitThreshold else { continue }
            let raw = boxes.baseAddress! + i * 16
            let anchor = anchors[i]
            func point(_ x: Float, _ y: Float) -> PixelPoint {
                rect.imagePoint(u: Double(x / scale + anchor.x), v: Double(y / scale + anchor.y))
            }
            let center = point(raw[0], raw[1])
            let w = Double(raw[2] / scale) * rect.width, h = Double(raw[3] / scale) * rect.height
            guard w > 0, h > 0, w.isFinite, h.isFinite else { continue }
            detections.append(
                FaceDetection(
                    box: PixelRect(x: center.x - w / 2, y: center.y - h / 2, width: w, height: h),
                    keypoints: (0..<6).map { point(raw[4 + 2 * $0], raw[5 + 2 * $0]) },
                    score: 1 / (1 + exp(-logit))))
        }
        return detections
    }
}
