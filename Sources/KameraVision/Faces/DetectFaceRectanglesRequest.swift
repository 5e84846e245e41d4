import Foundation
import KameraCore
import KameraNN

/// Finds faces, like Vision's `DetectFaceRectanglesRequest`: MediaPipe's BlazeFace short- and
/// full-range detectors run by KameraNN, tiled over large images so small faces are found.
/// Results are sorted by confidence; each has roll, yaw and pitch from the detector keypoints.
public struct DetectFaceRectanglesRequest: ImageRequest {
    /// Which BlazeFace model looks at the whole image (MediaPipe's `model_selection`).
    public enum DetectorRange: Sendable, Hashable {
        /// Full range: near and far faces (down to about 1/20 of the image), with the short-range
        /// model as the fallback when it finds none.
        case full
        /// Short range only: faces at least about a tenth of the image wide (selfies, video
        /// calls, ID photos), as MediaPipe's Face Mesh finds them; the model costs a third of
        /// the full-range one.
        case short
    }

    /// Smallest face side in pixels to look for; nil picks max(20 px, 1 % of the long side).
    /// Smaller values scan the image at a finer scale (slower on large images).
    public var minimumFaceSize: Double?
    /// Whether to scan for faces too small for the whole-image pass (the full-range model slid
    /// over the image at each finer scale, on every core); false runs only the whole-image
    /// pass (fastest, faces above about 1/20 of the image).
    public var scansTiles: Bool
    /// Detections below this confidence are dropped.
    public var minimumConfidence: Float
    /// At most this many faces, best first.
    public var maximumFaces: Int
    /// Threads for the scan at finer scales and the per-face looks; nil uses every core.
    public var maximumThreads: Int?
    /// Whether each face is looked at again on its own upright crop (better box, keypoints and
    /// roll, fewer false faces; about 1.5 ms per face).
    public var refinesFaces = true
    /// The whole-image pass's model; the finer scales always use the full-range one.
    public var detectorRange = DetectorRange.full
    /// Detections overlapping more than this (intersection over union) are one face: they are
    /// merged into their score-weighted mean box, as MediaPipe does.
    public var overlapThreshold = 0.3
    /// Where the BlazeFace models are read from (and, for the landmark request and
    /// `LiveScanner`, Face Mesh and Iris).
    public var modelStore = ModelStore.default
    /// The part of the image to analyse (normalized, lower-left origin); results are relative
    /// to it, as in Vision. Default: the whole image.
    public var regionOfInterest = NormalizedRect.fullImage

    public init(
        minimumFaceSize: Double? = nil, scansTiles: Bool = true, minimumConfidence: Float = 0.5,
        maximumFaces: Int = 100, maximumThreads: Int? = nil
    ) {
        self.maximumThreads = maximumThreads
        self.minimumFaceSize = minimumFaceSize
        self.scansTiles = scansTiles
        self.minimumConfidence = minimumConfidence
        self.maximumFaces = maximumFaces
    }

    public func perform(in context: ImageAnalysisContext) throws -> [FaceObservation] {
        let context = try context.region(regionOfInterest)
        return try detections(in: context).map { Self.observation($0, imageSize: context.rgb.size) }
    }

    func detections(in context: ImageAnalysisContext) throws -> [FaceDetection] {
        try validate()
        return Array(try candidates(in: context.tensorSampler, scanner: try FaceScanner(models: modelStore)).prefix(maximumFaces))
    }

    func validate() throws {
        guard maximumFaces > 0 else { throw KameraError.invalidArgument("maximumFaces must be positive") }
        guard overlapThreshold > 0, overlapThreshold < 1 else {
            throw KameraError.invalidArgument("overlapThreshold must be between 0 and 1 (got \(overlapThreshold))")
        }
    }

    /// Every face this request's options find, merged, confident enough, best first; shared
    /// with `LiveScanner`, which adds the faces it follows and merges them with `merged(_:)`
    /// and keeps a `memory` of its tiled scans.
    func candidates(in sampler: TensorSampler, scanner: FaceScanner, memory: TiledScanMemory? = nil) throws -> [FaceDetection] {
        try scanner.detect(
            in: sampler, minimumFaceSize: minimumFaceSize, useTiles: scansTiles,
            threads: maximumThreads ?? ProcessInfo.processInfo.activeProcessorCount, refines: refinesFaces,
            range: detectorRange, overlapThreshold: overlapThreshold, memory: memory
        )
        .filter { $0.score >= minimumConfidence }
    }

    /// `detections` merged by this request's overlap rule and cut to `maximumFaces`, best first.
    func merged(_ detections: [FaceDetection]) -> [FaceDetection] {
        WeightedNonMaxSuppression.apply(detections, threshold: overlapThreshold, limit: maximumFaces)
    }

    static func observation(_ detection: FaceDetection, imageSize: Size) -> FaceObservation {
        let (roll, yaw, pitch) = KeypointPose.angles(detection.keypoints)
        return FaceObservation(
            boundingBox: detection.box.normalized(in: imageSize), imageSize: imageSize,
            confidence: detection.score, roll: .radians(roll), yaw: .radians(yaw), pitch: .radians(pitch),
            keypoints: detection.keypoints)
    }
}
