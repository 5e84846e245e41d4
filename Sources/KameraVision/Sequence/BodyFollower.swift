import Foundation
import KameraCore

/// The bodies part of ``LiveScanner``, as MediaPipe's streaming pose pipeline: each person's
/// landmarks in one frame give the region to look in the next (one landmark run a person, no
/// detector), and the detector runs only while fewer people are followed than asked for —
/// every frame when nobody is, every `searchInterval` frames otherwise. Unlike MediaPipe's
/// single-pose graph it follows several people and gives each a stable ID.
struct BodyFollower {
    private struct Track {
        var id: Int
        /// Where to look in the next frame.
        var place: FollowedRegion
        var box: PixelRect
        var lastSeen: Double { place.lastSeen }
    }

    let request: DetectHumanBodyPoseRequest
    let lostAfter: Double
    let searchInterval: Int
    private let detector: LetterboxedSSDDetector<PersonDetection>
    private let landmarker: BlazePoseLandmarker
    private var tracks: [Track] = []
    private var nextID = 1
    private var framesSinceSearch = Int.max

    /// - Throws: the request's `validate()` errors, `invalidArgument` for a region of interest
    ///   (bodies are followed in whole frames), and `missingResource` when a model is missing.
    init(request: DetectHumanBodyPoseRequest, lostAfter: Double, searchInterval: Int = 10) throws {
        try request.validate()
        guard request.regionOfInterest == .fullImage else {
            throw KameraError.invalidArgument(
                "LiveScanner follows bodies in whole frames: crop the frames instead of setting regionOfInterest")
        }
        (self.request, self.lostAfter, self.searchInterval) = (request, lostAfter, searchInterval)
        detector = try LetterboxedSSDDetector(.blazePose, models: request.modelStore)
        landmarker = try BlazePoseLandmarker(models: request.modelStore)
    }

    /// The bodies in the frame `sampler` holds and the appeared/lost events decided there.
    mutating func update(_ sampler: TensorSampler, at time: Double) -> ([TrackedBody], [ScanEvent]) {
        let size = Size(width: Double(sampler.image.width), height: Double(sampler.image.height))
        var results: [TrackedBody] = []
        var events: [ScanEvent] = []
        var gone: Set<Int> = []
        for index in tracks.indices {
            let found = landmarker.landmarks(in: sampler, region: tracks[index].place.predicted(at: time))
            guard !found.points.isEmpty, found.score >= request.minimumConfidence else { continue }
            let pose = HumanBodyPoseObservation(landmarks: found.points, confidence: found.score, imageSize: size)
            let box = pose.pixelBoundingBox
            // Two tracks that slid onto one person: the younger gives way at once.
            if results.contains(where: { $0.observation.pixelBoundingBox.intersectionOverUnion(box) > 0.5 }) {
                gone.insert(tracks[index].id)
                continue
            }
            tracks[index].place.update(found.nextRegion, at: time)
            tracks[index].box = box
            results.append(TrackedBody(bodyID: tracks[index].id, observation: pose, isDetected: false))
        }
        framesSinceSearch = framesSinceSearch == Int.max ? Int.max : framesSinceSearch + 1
        // Search when nobody is followed, when someone followed was missed, and now and then
        // for newcomers.
        let missed = results.count < tracks.count - gone.count
        if results.count < request.maximumPeople, results.isEmpty || missed || framesSinceSearch >= searchInterval {
            framesSinceSearch = 0
            for person in detector.detect(in: sampler, limit: request.maximumPeople) where results.count < request.maximumPeople {
                // Someone already followed: the detection's hips (its box is the face's) are
                // theirs, within a third of the body's radius.
                let (hips, edge) = (person.keypoints[PersonDetection.hipsCenter], person.keypoints[PersonDetection.bodyCircle])
                if results.contains(where: {
                    $0.observation.recognizedPoint(.root).pixelLocation.distance(to: hips) < hips.distance(to: edge) / 3
                }) {
                    continue
                }
                let found = landmarker.landmarks(in: sampler, region: person.bodyRegion)
                let confidence = min(person.score, found.score)
                guard !found.points.isEmpty, confidence >= request.minimumConfidence else { continue }
                let pose = HumanBodyPoseObservation(landmarks: found.points, confidence: confidence, imageSize: size)
                let box = pose.pixelBoundingBox
                // The same person after all (the detector's hips were off): mostly the same box.
                if results.contains(where: { $0.observation.pixelBoundingBox.intersectionOverUnion(box) > 0.5 }) { continue }
                // A person missed for a moment and found again where they were keeps their ID.
                if let index = tracks.firstIndex(where: {
                    $0.lastSeen < time && !gone.contains($0.id) && $0.box.intersectionOverUnion(box) > 0.3
                }) {
                    tracks[index].place.update(found.nextRegion, at: time)
                    tracks[index].box = box
                    results.append(TrackedBody(bodyID: tracks[index].id, observation: pose, isDetected: true))
                } else {
                    tracks.append(Track(id: nextID, place: FollowedRegion(found.nextRegion, at: time), box: box))
                    results.append(TrackedBody(bodyID: nextID, observation: pose, isDetected: true))
                    events.append(ScanEvent(type: .appeared, kind: .body, id: String(nextID), time: time))
                    nextID += 1
                }
            }
        }
        tracks.removeAll { track in
            guard gone.contains(track.id) || time - track.lastSeen > lostAfter else { return false }
            events.append(ScanEvent(type: .lost, kind: .body, id: String(track.id), time: time))
            return true
        }
        return (results.sorted { $0.bodyID < $1.bodyID }, events)
    }

    /// Ends the stream: every body still followed is lost.
    mutating func finish(at time: Double) -> [ScanEvent] {
        defer { tracks = [] }
        return tracks.map { ScanEvent(type: .lost, kind: .body, id: String($0.id), time: time) }
    }
}
