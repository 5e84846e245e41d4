import Foundation
import KameraCore
import KameraNN

/// Finds people's body poses, like Vision's `DetectHumanBodyPoseRequest`: BlazePose's
/// detector finds each person (in the whole image, then closer in parts of it), the landmark
/// model places 33 points in the person's upright region (a second time where the body lies
/// or stands on its head), and each result names Vision's 19 joints.
public struct DetectHumanBodyPoseRequest: ImageRequest {
    /// At most this many people, most confident first.
    public var maximumPeople: Int
    /// People the detector or the landmark model is less sure of are dropped (0…1).
    public var minimumConfidence: Float
    /// Whether to look closer when the whole image gives fewer than `maximumPeople`:
    /// BlazePose's detector sees people from about a fifth of the image's longer side up, so
    /// squares of the shorter side, then of half of it, are looked at too (people down to
    /// about a tenth of the shorter side; side-by-side scenes; a few times the time). False:
    /// the whole image only, as MediaPipe's pipeline.
    public var scansTiles = true
    /// Threads for the closer looks; nil uses every core.
    public var maximumThreads: Int?
    public var regionOfInterest = NormalizedRect.fullImage
    /// Where the models are read from.
    public var modelStore = ModelStore.default

    public init(maximumPeople: Int = 8, minimumConfidence: Float = 0.5) {
        self.maximumPeople = maximumPeople
        self.minimumConfidence = minimumConfidence
    }

    /// Refuses limits out of range.
    /// - Throws: `KameraError.invalidArgument`.
    public func validate() throws {
        guard (1...100).contains(maximumPeople), minimumConfidence.isFinite, (0...1).contains(minimumConfidence),
            (maximumThreads ?? 1) >= 1
        else {
            throw KameraError.invalidArgument("maximumPeople must be 1…100, minimumConfidence 0…1 and maximumThreads at least 1")
        }
    }

    /// - Throws: `KameraError.invalidArgument` for a limit out of range, `missingResource` when
    ///   a model is not installed, and the region's errors.
    public func perform(in context: ImageAnalysisContext) throws -> [HumanBodyPoseObservation] {
        try posesInTwoAndThreeDimensions(in: context).flat
    }

    /// The people's poses both ways from one run: in the image, and in metres (the model's
    /// world landmarks, as `DetectHumanBodyPose3DRequest` gives them) — for a caller asking for
    /// both, so the detector and the landmark model run once.
    /// - Throws: as `perform(in:)`.
    package func posesInTwoAndThreeDimensions(
        in context: ImageAnalysisContext
    ) throws -> (flat: [HumanBodyPoseObservation], world: [HumanBodyPose3DObservation]) {
        let found = try poses(in: context)
        return (
            found.map { HumanBodyPoseObservation(landmarks: $0.found.points, confidence: $0.confidence, imageSize: $0.size) },
            found.map {
                HumanBodyPose3DObservation(
                    world: $0.found.world, image: $0.found.points.map(\.position), confidence: $0.confidence, imageSize: $0.size)
            }
        )
    }

    /// Each person the detector finds with the landmark model's reading of them, most confident
    /// first, those under `minimumConfidence` (or without landmarks) dropped; and the size of
    /// the region they are in.
    private func poses(in context: ImageAnalysisContext) throws -> [(found: BlazePoseLandmarker.Result, confidence: Float, size: Size)] {
        try validate()
        let region = try context.region(regionOfInterest)
        let sampler = region.tensorSampler
        let search = PersonSearch(
            detector: try LetterboxedSSDDetector(.blazePose, models: modelStore), scansTiles: scansTiles,
            threads: maximumThreads ?? ProcessInfo.processInfo.activeProcessorCount)
        let people = search.people(in: sampler, limit: maximumPeople)
        let landmarker = try BlazePoseLandmarker(models: modelStore)
        let size = Size(width: Double(sampler.image.width), height: Double(sampler.image.height))
        var poses: [(found: BlazePoseLandmarker.Result, confidence: Float, size: Size)] = []
        var boxes: [PixelRect] = []
        for person in people {
            var found = landmarker.landmarks(in: sampler, region: person.bodyRegion)
            // A body lying or upside down: the detector's turn is rough, the landmarks' own
            // alignment points are better, so the model looks once more where they put the body
            // (MediaPipe's next-frame region, used within the photo). Upright people are left
            // as MediaPipe reads them.
            if abs(person.bodyRegion.angle) > Self.secondLookAngle {
                let again = landmarker.landmarks(in: sampler, region: found.nextRegion)
                if !again.points.isEmpty, again.score >= minimumConfidence { found = again }
            }
            let confidence = min(person.score, found.score)
            guard !found.points.isEmpty, found.world.count == BlazePoseLandmarker.landmarkCount, confidence >= minimumConfidence else {
                continue
            }
            // One person found twice (a closer look that cut them saw a second face box): the
            // landmarks land on the same body.
            let box = Self.box(of: found.points)
            if boxes.contains(where: { $0.intersectionOverUnion(box) > 0.5 }) { continue }
            boxes.append(box)
            poses.append((found, confidence, size))
        }
        return poses.sorted { $0.confidence > $1.confidence }
    }

    /// How far (radians) the detector must find a body turned from upright for a second look
    /// (40°: on the harder people set's turned photos, 76 → 80 % of the joints within 5 % of
    /// the torso; lower angles reached upright people and moved them off MediaPipe's reading).
    static let secondLookAngle = 0.7

    /// Whether `other` finds the same people the same way (every setting but the threads).
    package func asksForSamePeople(as other: DetectHumanBodyPoseRequest) -> Bool {
        maximumPeople == other.maximumPeople && minimumConfidence == other.minimumConfidence && scansTiles == other.scansTiles
            && regionOfInterest == other.regionOfInterest && modelStore.directory == other.modelStore.directory
    }

    /// The box round the landmarks (those the model is sure are in view and those it is not).
    private static func box(of points: [BlazePoseLandmarker.Landmark]) -> PixelRect {
        let xs = points.map(\.position.x), ys = points.map(\.position.y)
        let (left, top) = (xs.min() ?? 0, ys.min() ?? 0)
        return PixelRect(x: left, y: top, width: (xs.max() ?? 0) - left, height: (ys.max() ?? 0) - top)
    }
}
