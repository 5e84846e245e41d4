import Foundation
import KameraCore
import KameraNN

/// Finds people's body poses, like Vision's `DetectHumanBodyPoseRequest`: BlazePose's
/// detector finds each person, the landmark model places 33 points in the person's upright
/// region, and each result names Vision's 19 joints.
public struct DetectHumanBodyPoseRequest: ImageRequest {
    /// At most this many people, most confident first.
    public var maximumPeople: Int
    /// People the detector or the landmark model is less sure of are dropped (0…1).
    public var minimumConfidence: Float
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
        guard (1...100).contains(maximumPeople), minimumConfidence.isFinite, (0...1).contains(minimumConfidence) else {
            throw KameraError.invalidArgument("maximumPeople must be 1…100 and minimumConfidence 0…1")
        }
    }

    /// - Throws: `KameraError.invalidArgument` for a limit out of range, `missingResource` when
    ///   a model is not installed, and the region's errors.
    public func perform(in context: ImageAnalysisContext) throws -> [HumanBodyPoseObservation] {
        try poses(in: context).map { HumanBodyPoseObservation(landmarks: $0.found.points, confidence: $0.confidence, imageSize: $0.size) }
    }

    /// Each person the detector finds with the landmark model's reading of them, most confident
    /// first, those under `minimumConfidence` (or without landmarks) dropped; and the size of
    /// the region they are in. Shared with the 3-D request, which reads the same run's world
    /// landmarks.
    func poses(in context: ImageAnalysisContext) throws -> [(found: BlazePoseLandmarker.Result, confidence: Float, size: Size)] {
        try validate()
        let region = try context.region(regionOfInterest)
        let sampler = region.tensorSampler
        let people = try LetterboxedSSDDetector(.blazePose, models: modelStore).detect(in: sampler, limit: maximumPeople)
        let landmarker = try BlazePoseLandmarker(models: modelStore)
        let size = Size(width: Double(sampler.image.width), height: Double(sampler.image.height))
        return people.compactMap { person in
            let found = landmarker.landmarks(in: sampler, region: person.bodyRegion)
            let confidence = min(person.score, found.score)
            guard !found.points.isEmpty, found.world.count == BlazePoseLandmarker.landmarkCount, confidence >= minimumConfidence else {
                return nil
            }
            return (found, confidence, size)
        }
    }
}
