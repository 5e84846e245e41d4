import Foundation
import KameraCore
import KameraNN

/// Finds people's body poses in metres, like Vision's `DetectHumanBodyPose3DRequest`: the same
/// detector and landmark model as ``DetectHumanBodyPoseRequest``, read from the model's world
/// landmarks (metres about the hips), with each body's height. Without a depth sensor the
/// scale is the model's estimate for a body of standard proportions (`heightEstimation`
/// `.reference`, as Vision without LiDAR).
public struct DetectHumanBodyPose3DRequest: ImageRequest {
    /// At most this many people, most confident first (Vision finds one; here up to 100).
    public var maximumPeople: Int
    /// People the detector or the landmark model is less sure of are dropped (0…1).
    public var minimumConfidence: Float
    public var regionOfInterest = NormalizedRect.fullImage
    /// Where the models are read from.
    public var modelStore = ModelStore.default

    public init(maximumPeople: Int = 1, minimumConfidence: Float = 0.5) {
        self.maximumPeople = maximumPeople
        self.minimumConfidence = minimumConfidence
    }

    /// - Throws: `KameraError.invalidArgument` for a limit out of range, `missingResource` when
    ///   a model is not installed, and the region's errors.
    public func perform(in context: ImageAnalysisContext) throws -> [HumanBodyPose3DObservation] {
        try flatRequest.posesInTwoAndThreeDimensions(in: context).world
    }

    /// The 2-D request that finds the same people (the 3-D poses are its run's world landmarks).
    package var flatRequest: DetectHumanBodyPoseRequest {
        var flat = DetectHumanBodyPoseRequest(maximumPeople: maximumPeople, minimumConfidence: minimumConfidence)
        (flat.regionOfInterest, flat.modelStore) = (regionOfInterest, modelStore)
        return flat
    }
}
