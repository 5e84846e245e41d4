import Foundation
import KameraCore
import KameraNN

/// Finds people, like Vision's `DetectHumanRectanglesRequest`: BlazePose's detector (on the
/// whole image, then closer, as `DetectHumanBodyPoseRequest`), each person's box being the
/// circle round the upper body (Vision's default) or the whole body.
public struct DetectHumanRectanglesRequest: ImageRequest {
    /// Boxes round head and torso (default, as Vision) or round the whole body.
    public var upperBodyOnly: Bool
    /// At most this many people, most confident first.
    public var maximumPeople: Int
    /// Whether to look closer when the whole image gives fewer than `maximumPeople` (see
    /// `DetectHumanBodyPoseRequest.scansTiles`).
    public var scansTiles = true
    /// Threads for the closer looks; nil uses every core.
    public var maximumThreads: Int?
    public var regionOfInterest = NormalizedRect.fullImage
    /// Where the model is read from.
    public var modelStore = ModelStore.default

    public init(upperBodyOnly: Bool = true, maximumPeople: Int = 16) {
        self.upperBodyOnly = upperBodyOnly
        self.maximumPeople = maximumPeople
    }

    /// - Throws: `KameraError.invalidArgument` for a limit out of range, `missingResource` when
    ///   the model is not installed, and the region's errors.
    public func perform(in context: ImageAnalysisContext) throws -> [HumanObservation] {
        guard (1...1000).contains(maximumPeople), (maximumThreads ?? 1) >= 1 else {
            throw KameraError.invalidArgument("maximumPeople must be 1…1000 and maximumThreads at least 1")
        }
        let region = try context.region(regionOfInterest)
        let sampler = region.tensorSampler
        let size = Size(width: Double(sampler.image.width), height: Double(sampler.image.height))
        let bounds = PixelRect(x: 0, y: 0, width: size.width, height: size.height)
        let search = PersonSearch(
            detector: try LetterboxedSSDDetector(.blazePose, models: modelStore), scansTiles: scansTiles,
            threads: maximumThreads ?? ProcessInfo.processInfo.activeProcessorCount)
        return search.people(in: sampler, limit: maximumPeople).map { person in
            let circle =
                upperBodyOnly
                ? PersonDetection.circleBox(
                    center: person.keypoints[PersonDetection.shouldersCenter], edge: person.keypoints[PersonDetection.upperBodyCircle])
                : PersonDetection.circleBox(
                    center: person.keypoints[PersonDetection.hipsCenter], edge: person.keypoints[PersonDetection.bodyCircle])
            let box = circle.intersection(bounds) ?? circle
            return HumanObservation(
                boundingBox: box.normalized(in: size), pixelBox: box, upperBodyOnly: upperBodyOnly, confidence: person.score,
                imageSize: size)
        }
    }
}
