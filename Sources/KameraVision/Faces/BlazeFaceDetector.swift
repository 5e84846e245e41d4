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
        /// Anchor centres (input pixels) for the native input, computed once per process.
        var anchors: [(x: Float, y: Float)] { self == .shortRange ? Self.shortRangeAnchors : Self.fullRangeAnchors }
        private static let shortRangeAnchors = SSDAnchors.centers(
            width: 128, height: 128, strides: [8, 16, 16, 16], anchorsPerLayer: 2)
        private static let fullRangeAnchors = fullRangeAnchors(width: 192, height: 192)
        static func fullRangeAnchors(width: Int, height: Int) -> [(x: Float, y: Float)] {
            SSDAnchors.centers(width: width, height: height, strides: [4], anchorsPerLayer: 1)
        }
    }

    /// The full-range model's largest stride: a scan's input sides are multiples of it.
    static let scanAlignment = 32

    let variant: Variant
    private let models: ModelStore
    private let sessions: InferenceSessionPool
    private let outputs: (regressors: Int, scores: Int)

    init(_ variant: Variant, models: ModelStore) throws {
        self.variant = variant
        self.models = models
        sessions = try models.sessions(variant.model)
        outputs = try Self.outputIndices(sessions.network, anchorCount: variant.anchors.count)
    }

    /// Outputs are [1, anchors, 16] box regressors and [1, anchors, 1] scores, in either order.
    private static func outputIndices(_ network: NeuralNetwork, anchorCount: Int) throws -> (regressors: Int, scores: Int) {
        let regressors = network.outputShapes.firstIndex { $0.last == 16 } ?? 0
        let scores = network.outputShapes.firstIndex { $0.last == 1 } ?? 1
        guard network.outputShapes[regressors] == [1, anchorCount, 16], network.outputShapes[scores] == [1, anchorCount, 1]
        else {
            throw KameraError.invalidModel(path: network.path, reason: "unexpected outputs \(network.outputShapes)")
        }
        return (regressors, scores)
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
        let size = variant.inputSize
        return sessions.withSession { session in
            decode(
                session, outputs: outputs, sampler: sampler, rect: region, width: size, height: size, anchors: variant.anchors,
                minimumScore: minimumScore)
        }
    }

    /// Slides the full-range model over `region` (axis-aligned, image pixels) sampled into a
    /// `width` × `height` input (multiples of `scanAlignment`): the model is fully
    /// convolutional, so this finds what square crops of its native size tiling the region
    /// would, in one run that takes each pixel through the network once instead of once per
    /// overlapping crop — and a face near where two crops would meet keeps its surroundings.
    func scan(
        in sampler: TensorSampler, region: PixelRect, width: Int, height: Int, minimumScore: Float? = nil
    ) throws -> [FaceDetection] {
        precondition(variant == .fullRange, "only the full-range model has a single anchor grid to scale")
        let pool = try models.sessions(variant.model, inputHeight: height, inputWidth: width)
        let anchors = Variant.fullRangeAnchors(width: width, height: height)
        let outputs = try Self.outputIndices(pool.network, anchorCount: anchors.count)
        let rect = RotatedRect(center: region.center, width: region.width, height: region.height, angle: 0)
        return pool.withSession { session in
            decode(
                session, outputs: outputs, sampler: sampler, rect: rect, width: width, height: height, anchors: anchors,
                minimumScore: minimumScore)
        }
    }

    private func decode(
        _ session: InferenceSession, outputs: (regressors: Int, scores: Int), sampler: TensorSampler, rect: RotatedRect,
        width: Int, height: Int, anchors: [(x: Float, y: Float)], minimumScore: Float?
    ) -> [FaceDetection] {
        session.withInput { sampler.sample(rect, into: $0, width: width, height: height, range: -1...1) }
        session.invoke()
        let threshold = minimumScore ?? variant.minimumScore
        // Scores are logits; compare in logit space and take the sigmoid only for hits.
        let logitThreshold = log(threshold / (1 - threshold))
        let scores = session.output(outputs.scores), boxes = session.output(outputs.regressors)
        // Regressors are in input pixels relative to the anchor centre.
        let tensorWidth = Double(width), tensorHeight = Double(height)
        var detections: [FaceDetection] = []
        for i in 0..<anchors.count {
            let logit = min(max(scores[i], -100), 100)
            guard logit >= logitThreshold else { continue }
            let raw = boxes.baseAddress! + i * 16
            let anchor = anchors[i]
            func point(_ x: Float, _ y: Float) -> PixelPoint {
                rect.imagePoint(u: Double(x + anchor.x) / tensorWidth, v: Double(y + anchor.y) / tensorHeight)
            }
            let center = point(raw[0], raw[1])
            let w = Double(raw[2]) / tensorWidth * rect.width, h = Double(raw[3]) / tensorHeight * rect.height
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
