import Foundation
import KameraCore

/// The hands part of ``LiveScanner``, as MediaPipe's streaming hand pipeline: each hand's
/// joints in one frame give the region to look in the next (one landmark run a hand). New
/// hands are looked for while fewer are followed than asked for: at the wrists of the bodies
/// found in the same frame (when bodies are followed too) on every frame, and with the palm
/// detector every `searchInterval` frames (every frame while no hand is followed).
struct HandFollower {
    private struct Track {
        var id: Int
        var chirality: HumanHandPoseObservation.Chirality
        /// Where to look in the next frame.
        var place: FollowedRegion
        var lastSeen: Double { place.lastSeen }
    }

    let request: DetectHumanHandPoseRequest
    let lostAfter: Double
    let searchInterval: Int
    private let palms: LetterboxedSSDDetector<HandDetection>
    private let landmarker: HandLandmarker
    private var tracks: [Track] = []
    private var nextID = 1
    private var framesSinceSearch = Int.max

    /// - Throws: the request's `validate()` errors, `invalidArgument` for a region of interest
    ///   (hands are followed in whole frames), and `missingResource` when a model is missing.
    init(request: DetectHumanHandPoseRequest, lostAfter: Double, searchInterval: Int = 10) throws {
        try request.validate()
        guard request.regionOfInterest == .fullImage else {
            throw KameraError.invalidArgument(
                "LiveScanner follows hands in whole frames: crop the frames instead of setting regionOfInterest")
        }
        (self.request, self.lostAfter, self.searchInterval) = (request, lostAfter, searchInterval)
        palms = try LetterboxedSSDDetector(.palms, models: request.modelStore)
        landmarker = try HandLandmarker(models: request.modelStore)
    }

    /// The hands in the frame `sampler` holds, given the body poses found in it, and the
    /// appeared/lost events decided there.
    mutating func update(_ sampler: TensorSampler, bodies: [HumanBodyPoseObservation], at time: Double) -> ([TrackedHand], [ScanEvent]) {
        let size = Size(width: Double(sampler.image.width), height: Double(sampler.image.height))
        let wanted = request.maximumHandCount
        var results: [(hand: TrackedHand, region: RotatedRect)] = []
        var events: [ScanEvent] = []
        var gone: Set<Int> = []
        // Hands can be close (clasped, crossed): a hand is known by its joints, not its region.
        // A wrist is taken by a followed hand on it; a body's wrist also by a followed hand of
        // the same side near it (the body pose's wrist lies a little off the hand model's).
        func followed(wrist: PixelPoint, side: HumanHandPoseObservation.Chirality? = nil) -> Bool {
            results.contains {
                let reach = $0.hand.observation.chirality == side ? 1.5 : 0.6
                return $0.hand.observation.pixelLocations[0].distance(to: wrist) < reach * Self.size($0.hand.observation.pixelLocations)
            }
        }
        func followed(_ joints: [PixelPoint]) -> Bool {
            results.contains { Self.same(joints, $0.hand.observation.pixelLocations) }
        }
        for index in tracks.indices {
            let hand = landmarker.hand(in: sampler, region: tracks[index].place.predicted(at: time))
            guard !hand.joints.isEmpty, hand.presence >= request.minimumConfidence else { continue }
            let next = HandLandmarker.nextRegion(following: hand.joints)
            // Two tracks that slid onto one hand: the younger gives way at once.
            if followed(hand.joints) {
                gone.insert(tracks[index].id)
                continue
            }
            tracks[index].place.update(next, at: time)
            let observation = HumanHandPoseObservation(
                joints: hand.joints, chirality: tracks[index].chirality, confidence: hand.presence, imageSize: size)
            results.append((TrackedHand(handID: tracks[index].id, observation: observation, isDetected: false), next))
        }
        framesSinceSearch = framesSinceSearch == Int.max ? Int.max : framesSinceSearch + 1
        if results.count < wanted {
            var candidates: [(region: RotatedRect, side: HumanHandPoseObservation.Chirality?)] = []
            for pose in bodies {
                for side in [HumanHandPoseObservation.Chirality.left, .right] {
                    let wrist = pose.recognizedPoint(side == .left ? .leftWrist : .rightWrist).pixelLocation
                    if let region = DetectHumanHandPoseRequest.handRegion(of: pose, side: side), !followed(wrist: wrist, side: side) {
                        candidates.append((region, side))
                    }
                }
            }
            if results.isEmpty || framesSinceSearch >= searchInterval {
                framesSinceSearch = 0
                for palm in palms.detect(in: sampler, limit: wanted) {
                    let region = palm.handRegion
                    if followed(wrist: palm.keypoints[HandDetection.wrist])
                        || candidates.contains(where: { $0.region.center.distance(to: region.center) < 0.5 * region.width })
                    {
                        continue
                    }
                    candidates.append((region, nil))
                }
            }
            for candidate in candidates where results.count < wanted {
                let hand = landmarker.hand(in: sampler, region: candidate.region)
                guard !hand.joints.isEmpty, hand.presence >= request.minimumConfidence else { continue }
                let next = HandLandmarker.nextRegion(following: hand.joints)
                if followed(hand.joints) { continue }
                let chirality = candidate.side ?? (hand.rightness >= 0.5 ? .right : .left)
                let id: Int
                // A hand missed for a moment and found again where it was keeps its ID.
                if let index = tracks.firstIndex(where: {
                    $0.lastSeen < time && !gone.contains($0.id) && $0.chirality == chirality
                        && $0.place.predicted(at: time).center.distance(to: next.center) < 0.5 * max($0.place.region.width, next.width)
                }) {
                    tracks[index].place.update(next, at: time)
                    id = tracks[index].id
                } else {
                    id = nextID
                    nextID += 1
                    tracks.append(Track(id: id, chirality: chirality, place: FollowedRegion(next, at: time)))
                    events.append(ScanEvent(type: .appeared, kind: .hand, id: String(id), time: time))
                }
                let observation = HumanHandPoseObservation(
                    joints: hand.joints, chirality: chirality, confidence: hand.presence, imageSize: size)
                results.append((TrackedHand(handID: id, observation: observation, isDetected: true), next))
            }
        }
        tracks.removeAll { track in
            guard gone.contains(track.id) || time - track.lastSeen > lostAfter else { return false }
            events.append(ScanEvent(type: .lost, kind: .hand, id: String(track.id), time: time))
            return true
        }
        return (results.map(\.hand).sorted { $0.handID < $1.handID }, events)
    }

    /// A hand's size: from the wrist to the middle finger's knuckle.
    static func size(_ joints: [PixelPoint]) -> Double { max(1, joints[0].distance(to: joints[9])) }

    /// Whether two sets of joints are one hand: the wrists within 0.6 of its size (two hands'
    /// wrists never meet that closely), or the joints on average within 0.3 (a hand half hidden
    /// behind a ball gives two readings whose fingers differ more than their wrists).
    static func same(_ a: [PixelPoint], _ b: [PixelPoint]) -> Bool {
        let size = max(size(a), size(b))
        if a[0].distance(to: b[0]) < 0.6 * size { return true }
        let mean = zip(a, b).reduce(0.0) { $0 + $1.0.distance(to: $1.1) } / Double(a.count)
        return mean < 0.3 * size
    }

    /// Ends the stream: every hand still followed is lost.
    mutating func finish(at time: Double) -> [ScanEvent] {
        defer { tracks = [] }
        return tracks.map { ScanEvent(type: .lost, kind: .hand, id: String($0.id), time: time) }
    }
}
