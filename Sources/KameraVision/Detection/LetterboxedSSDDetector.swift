import Foundation
import KameraCore
import KameraNN
import Synchronization

/// One of MediaPipe's SSD detectors that look at the whole image letterboxed into a square
/// input (BlazePose's person detector, the palm detector) run by KameraNN: outputs decoded
/// against the anchors (a box and keypoints relative to each anchor, a score logit), overlapping
/// detections merged by weighted non-maximum suppression, everything in image pixels.
struct LetterboxedSSDDetector<Detection: KeypointDetection>: Sendable {
    /// A model and MediaPipe's settings for it.
    struct Configuration: Sendable {
        var model: KameraModel
        var inputSize: Int
        var strides: [Int]
        var keypoints: Int
        /// Input values: −1…1 (BlazePose) or 0…1 (palms).
        var range: ClosedRange<Float>
        var minimumScore: Float = 0.5
        var overlap = 0.3
    }

    let configuration: Configuration
    private let anchors: [(x: Float, y: Float)]
    private let sessions: InferenceSessionPool
    private let outputs: (regressors: Int, scores: Int)

    init(_ configuration: Configuration, models: ModelStore) throws {
        self.configuration = configuration
        anchors = SSDAnchors.centers(
            width: configuration.inputSize, height: configuration.inputSize, strides: configuration.strides, anchorsPerLayer: 2)
        sessions = try models.sessions(configuration.model)
        let coordinates = 4 + 2 * configuration.keypoints
        let shapes = sessions.network.outputShapes
        let regressors = shapes.firstIndex { $0.last == coordinates } ?? 0, scores = shapes.firstIndex { $0.last == 1 } ?? 1
        guard shapes.count == 2, shapes[regressors] == [1, anchors.count, coordinates], shapes[scores] == [1, anchors.count, 1]
        else { throw KameraError.invalidModel(path: sessions.network.path, reason: "unexpected outputs \(shapes)") }
        outputs = (regressors, scores)
    }

    /// The detections in the sampler's image, best first, at most `limit`.
    func detect(in sampler: TensorSampler, limit: Int) -> [Detection] {
        WeightedNonMaxSuppression.apply(
            candidates(in: sampler, square: Self.wholeImage(of: sampler.image)), threshold: configuration.overlap, limit: limit)
    }

    /// The detections in each of `squares` (parts of the image looked at closer, on up to
    /// `threads` threads), merged across them, best first, at most `limit`.
    func detect(in sampler: TensorSampler, closerLooks squares: [RotatedRect], threads: Int, limit: Int) -> [Detection] {
        let found = Mutex<[[Detection]]>(Array(repeating: [], count: squares.count))
        let next = Atomic<Int>(0)
        DispatchQueue.concurrentPerform(iterations: max(1, min(threads, squares.count))) { _ in
            while true {
                let index = next.add(1, ordering: .relaxed).oldValue
                guard index < squares.count else { return }
                let candidates = candidates(in: sampler, square: squares[index])
                found.withLock { $0[index] = candidates }
            }
        }
        return WeightedNonMaxSuppression.apply(
            found.withLock { $0.flatMap { $0 } }, threshold: configuration.overlap, limit: limit)
    }

    /// The whole image in the middle of a square (MediaPipe's letterbox: the rest reads black),
    /// on MediaPipe's grid: its region's centre is half the image's size in pixel coordinates,
    /// and the tensor's corner pixel reads the image's corner pixel.
    static func wholeImage(of image: PixelBuffer) -> RotatedRect {
        let side = Double(max(image.width, image.height))
        return RotatedRect(center: PixelPoint(x: Double(image.width) / 2, y: Double(image.height) / 2), width: side, height: side, angle: 0)
    }

    /// Every anchor's detection above the score threshold in the upright `square`, in image
    /// pixels, before the overlapping ones are merged.
    private func candidates(in sampler: TensorSampler, square region: RotatedRect) -> [Detection] {
        let side = region.width
        let (size, keypoints, coordinates) = (configuration.inputSize, configuration.keypoints, 4 + 2 * configuration.keypoints)
        return sessions.withSession { session -> [Detection] in
            session.withInput { sampler.sample(region, into: $0, width: size, height: size, range: configuration.range, grid: .corners) }
            session.invoke()
            let threshold = configuration.minimumScore
            let logitThreshold = log(threshold / (1 - threshold))
            let scores = session.output(outputs.scores), boxes = session.output(outputs.regressors)
            var detections: [Detection] = []
            for (i, anchor) in anchors.enumerated() {
                let logit = min(max(scores[i], -100), 100)
                guard logit >= logitThreshold else { continue }
                let raw = boxes.baseAddress! + i * coordinates
                func point(_ x: Float, _ y: Float) -> PixelPoint {
                    region.imagePoint(u: Double(x + anchor.x) / Double(size), v: Double(y + anchor.y) / Double(size))
                }
                let center = point(raw[0], raw[1])
                let w = Double(raw[2]) / Double(size) * side, h = Double(raw[3]) / Double(size) * side
                guard w > 0, h > 0, w.isFinite, h.isFinite else { continue }
                detections.append(
                    Detection(
                        box: PixelRect(x: center.x - w / 2, y: center.y - h / 2, width: w, height: h),
                        keypoints: (0..<keypoints).map { point(raw[4 + 2 * $0], raw[5 + 2 * $0]) }, score: 1 / (1 + exp(-logit))))
            }
            return detections
        }
    }
}

extension LetterboxedSSDDetector.Configuration where Detection == PersonDetection {
    /// BlazePose's person detector: 224², 2,254 anchors, four keypoints.
    static var blazePose: Self { Self(model: .poseDetection, inputSize: 224, strides: [8, 16, 32, 32, 32], keypoints: 4, range: -1...1) }
}

extension LetterboxedSSDDetector.Configuration where Detection == HandDetection {
    /// The palm detector (full): 192², 2,016 anchors, seven keypoints.
    static var palms: Self { Self(model: .palmDetectionFull, inputSize: 192, strides: [8, 16, 16, 16], keypoints: 7, range: 0...1) }
}
