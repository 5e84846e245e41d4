import Foundation
import KameraCore
import KameraNN

/// Finds hands and their 21 joints, like Vision's `DetectHumanHandPoseRequest`: MediaPipe's
/// hand landmark model on each hand's upright region. Regions come from two places, in this
/// order: MediaPipe's palm detector (hands close to the camera, the hand photo's case, at
/// MediaPipe's cost), then, when it found fewer hands than asked for and none close to the
/// camera, the body pose's wrists and fingers (hands a few dozen pixels wide in a photo of whole
/// people, which the palm detector at its 192² input cannot see).
public struct DetectHumanHandPoseRequest: ImageRequest {
    /// At most this many hands, most confident first (Vision's default 2).
    public var maximumHandCount: Int
    /// Hands the landmark model is less sure are there are dropped (0…1).
    public var minimumConfidence: Float
    /// Body poses already found in the same image (and region), whose wrists lead to the
    /// hands; nil runs `DetectHumanBodyPoseRequest` itself. (As Vision's landmark request takes
    /// `inputFaceObservations`: a caller asking for bodies and hands finds the bodies once.)
    public var inputBodyObservations: [HumanBodyPoseObservation]?
    public var regionOfInterest = NormalizedRect.fullImage
    /// Where the models are read from.
    public var modelStore = ModelStore.default

    public init(maximumHandCount: Int = 2, minimumConfidence: Float = 0.5) {
        self.maximumHandCount = maximumHandCount
        self.minimumConfidence = minimumConfidence
    }

    /// Refuses limits out of range.
    /// - Throws: `KameraError.invalidArgument`.
    public func validate() throws {
        guard (1...100).contains(maximumHandCount), minimumConfidence.isFinite, (0...1).contains(minimumConfidence) else {
            throw KameraError.invalidArgument("maximumHandCount must be 1…100 and minimumConfidence 0…1")
        }
    }

    /// - Throws: `KameraError.invalidArgument` for a limit out of range, `missingResource` when
    ///   a model is not installed, and the region's errors.
    public func perform(in context: ImageAnalysisContext) throws -> [HumanHandPoseObservation] {
        try validate()
        let region = try context.region(regionOfInterest)
        let sampler = region.tensorSampler
        let size = Size(width: Double(sampler.image.width), height: Double(sampler.image.height))
        let landmarker = try HandLandmarker(models: modelStore)
        // Each hand read: its joints, its region, and the body side whose wrist led to it.
        var readings: [(hand: HandLandmarker.Hand, region: RotatedRect, side: HumanHandPoseObservation.Chirality?)] = []
        func look(at region: RotatedRect, side: HumanHandPoseObservation.Chirality?) {
            // A palm the body pose leads to again is not read twice: a region centred on one
            // already read, or on the middle of a hand already read (within 0.35 of its span:
            // measured on the people photos, the same hand lies 0.13 of its span from the body's
            // region centre, the other hand on a ball 0.70), is skipped before the landmark
            // run; and a reading whose joints lie on a hand already found is dropped (two hands
            // holding a ball are closer than their regions are wide, so regions alone cannot
            // tell them apart). The body's side is kept for it: the landmark model's handedness
            // is a guess from the hand alone (0.50 on the hand a footballer holds out, in
            // MediaPipe's pipeline as in this one), the body pose sees which arm it ends.
            let nearby =
                readings.firstIndex { $0.region.center.distance(to: region.center) < 0.15 * min($0.region.width, region.width) }
                ?? readings.firstIndex { Self.lies(region.center, onHand: $0.hand.joints) }
            if let same = nearby {
                if readings[same].side == nil { readings[same].side = side }
                return
            }
            let hand = landmarker.hand(in: sampler, region: region)
            guard !hand.joints.isEmpty, hand.presence >= minimumConfidence else { return }
            if let same = readings.firstIndex(where: { Self.isSameHand($0.hand.joints, hand.joints) }) {
                if readings[same].side == nil { readings[same].side = side }
                return
            }
            readings.append((hand, region, side))
        }
        let palms = try LetterboxedSSDDetector(.palms, models: modelStore).detect(in: sampler, limit: maximumHandCount)
        for palm in palms { look(at: palm.handRegion, side: nil) }
        if let inputBodyObservations {
            // Bodies the caller already has cost nothing to follow.
            for pose in inputBodyObservations { lookAtHands(of: pose, with: look) }
        } else if readings.count < maximumHandCount, !Self.isCloseUp(readings.map(\.hand.joints), in: size) {
            var bodyPose = DetectHumanBodyPoseRequest(maximumPeople: max(1, (maximumHandCount + 1) / 2))
            bodyPose.modelStore = modelStore
            // The whole image only: the hands of people too small for it are too small to read.
            bodyPose.scansTiles = false
            for pose in try bodyPose.perform(in: region) { lookAtHands(of: pose, with: look) }
        }
        let hands = readings.map {
            HumanHandPoseObservation(
                joints: $0.hand.joints, chirality: $0.side ?? ($0.hand.rightness >= 0.5 ? .right : .left),
                confidence: $0.hand.presence, imageSize: size)
        }
        return Array(hands.sorted { $0.confidence > $1.confidence }.prefix(maximumHandCount))
    }

    private func lookAtHands(
        of pose: HumanBodyPoseObservation, with look: (RotatedRect, HumanHandPoseObservation.Chirality?) -> Void
    ) {
        for side in [HumanHandPoseObservation.Chirality.left, .right] {
            if let hand = Self.handRegion(of: pose, side: side) { look(hand, side) }
        }
    }

    /// Whether two readings' joints are one hand: on average within a fifth of the first's span.
    static func isSameHand(_ a: [PixelPoint], _ b: [PixelPoint]) -> Bool {
        guard a.count == b.count, !a.isEmpty else { return false }
        let mean = zip(a, b).reduce(0) { $0 + $1.0.distance(to: $1.1) } / Double(a.count)
        return mean < 0.2 * max(span(of: a), 1)
    }

    /// Whether a point lies within 0.35 of a hand's span from the middle of its joints.
    static func lies(_ point: PixelPoint, onHand joints: [PixelPoint]) -> Bool {
        middle(of: joints).distance(to: point) < 0.35 * span(of: joints)
    }

    /// The middle of the joints' bounding box.
    static func middle(of points: [PixelPoint]) -> PixelPoint {
        PixelPoint(
            x: ((points.map(\.x).max() ?? 0) + (points.map(\.x).min() ?? 0)) / 2,
            y: ((points.map(\.y).max() ?? 0) + (points.map(\.y).min() ?? 0)) / 2)
    }

    /// The larger side of the joints' bounding box.
    static func span(of points: [PixelPoint]) -> Double {
        max((points.map(\.x).max() ?? 0) - (points.map(\.x).min() ?? 0), (points.map(\.y).max() ?? 0) - (points.map(\.y).min() ?? 0))
    }

    /// Whether a hand found is so close to the camera (its joints span a quarter of the image's
    /// shorter side) that the person's other hand, if in view, is as large: within the palm
    /// detector's reach, so the body pose would lead to no hand it missed, only cost its time.
    static func isCloseUp(_ hands: [[PixelPoint]], in size: Size) -> Bool {
        hands.contains { span(of: $0) >= 0.25 * min(size.width, size.height) }
    }

    /// The upright square round a body pose's hand on `side`: from the wrist towards the middle
    /// of the index and little fingers' landmarks, four times that distance wide (the whole
    /// hand with its fingers spread); nil when the wrist is not in view.
    static func handRegion(of pose: HumanBodyPoseObservation, side: HumanHandPoseObservation.Chirality) -> RotatedRect? {
        // BlazePose: left wrist 15, left little finger 17, left index 19; right ones +1.
        let offset = side == .left ? 0 : 1
        let (wrist, little, index) = (pose.landmarks[15 + offset], pose.landmarks[17 + offset], pose.landmarks[19 + offset])
        guard wrist.confidence >= 0.5 else { return nil }
        let knuckles = PixelPoint(
            x: (index.pixelLocation.x + little.pixelLocation.x) / 2, y: (index.pixelLocation.y + little.pixelLocation.y) / 2)
        let reach = wrist.pixelLocation.distance(to: knuckles)
        guard reach > 1 else { return nil }
        let center = PixelPoint(x: (wrist.pixelLocation.x + knuckles.x) / 2, y: (wrist.pixelLocation.y + knuckles.y) / 2)
        return RotatedRect(
            center: center, width: 4 * reach, height: 4 * reach,
            angle: PersonDetection.uprightAngle(from: wrist.pixelLocation, to: knuckles))
    }
}
