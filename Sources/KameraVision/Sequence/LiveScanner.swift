import Dispatch
import Foundation
import KameraCore
import Synchronization

/// Runs face and code detection (and, if asked, rectangles, text, body and hand poses and a
/// person mask) on each frame of a stream and keeps state between frames — Vision's
/// `VNSequenceRequestHandler` and AVCaptureMetadataOutput in one: faces, bodies, hands and
/// rectangles get stable IDs, codes are keyed by content, and each frame reports
/// appeared/lost events.
///
/// Between full face detections it follows each known face on a crop around its predicted
/// position (one small model run per face), and how often it detects afresh adapts to
/// `frameBudget`. Codes are read on every frame, in parallel with the faces.
/// One scanner per stream; not thread-safe.
public final class LiveScanner {
    /// What to look for and how long things may go unseen.
    public struct Configuration: Sendable {
        /// Face detection, with the same options as for single images (default: whole frame,
        /// no tiles, for speed); nil looks for no faces.
        public var faceDetection: DetectFaceRectanglesRequest?
        /// Landmarks on every tracked face, with the landmark request's options (its own
        /// `faceDetection` is not used: faces come from the tracker); nil skips landmarks.
        public var faceLandmarks: DetectFaceLandmarksRequest?
        /// Code reading settings; nil reads no codes.
        public var barcodes: DetectBarcodesRequest?
        /// Rectangles to find (up to its `maximumObservations`) and follow by their corners;
        /// nil (the default) looks for none.
        public var rectangles: DetectRectanglesRequest?
        /// A face unseen this long (seconds) is lost.
        public var faceLostAfter: Double
        /// A code unseen this long (seconds) is lost; the seed's hide timer is 0.2 s.
        public var codeLostAfter: Double
        /// Time per frame (seconds) to stay within, e.g. 1/30; nil detects faces on every frame.
        public var frameBudget: Double?
        /// Text to find, at its own pace: one detection at a time runs beside the frames (it
        /// takes seconds where faces and codes take milliseconds), and each frame reports the
        /// newest finished one; nil (the default) looks for none.
        public var text: DetectTextRectanglesRequest?
        /// Body poses to follow (up to its `maximumPeople`), each from its pose in the previous
        /// frame as MediaPipe's streaming pipeline; nil (the default) looks for none.
        public var bodies: DetectHumanBodyPoseRequest?
        /// Hands to follow (up to its `maximumHandCount`), each from its joints in the previous
        /// frame; new ones are looked for at the bodies' wrists and by the palm detector. nil
        /// (the default) looks for none.
        public var hands: DetectHumanHandPoseRequest?
        /// A person mask on every frame (at the model's size unless the request says
        /// otherwise), steadied between frames; nil (the default) makes none.
        public var personSegmentation: GeneratePersonSegmentationRequest?
        /// A body or hand unseen this long (seconds) is lost.
        public var personLostAfter: Double = 0.5
        /// Full face detection every this many frames, known faces followed between, whatever
        /// the machine's speed (overrides `frameBudget`): the same frames are scanned on any
        /// machine, so a file's result does not depend on the CPU it ran on. nil: by the budget.
        public var detectionEvery: Int?
        /// Whether a tiled face scan (`faceDetection.scansTiles`) skips the parts of the picture
        /// that have not changed since it last scanned them, keeping what it found there (every
        /// part is scanned afresh at least every fourth scan): a fixed camera's background is
        /// not searched for small faces again and again. false scans every part every time
        /// (a moving camera gains nothing from it; it costs about a millisecond a scan).
        public var skipsStillTiles = true

        /// Whether faces are looked for.
        public var detectsFaces: Bool { faceDetection != nil }
        /// Whether tracked faces get landmarks.
        public var detectsLandmarks: Bool { faceDetection != nil && faceLandmarks != nil }

        public init(
            faceDetection: DetectFaceRectanglesRequest? = DetectFaceRectanglesRequest(scansTiles: false),
            faceLandmarks: DetectFaceLandmarksRequest? = nil,
            barcodes: DetectBarcodesRequest? = DetectBarcodesRequest(effort: .fast),
            faceLostAfter: Double = 0.4, codeLostAfter: Double = 0.2, frameBudget: Double? = nil,
            rectangles: DetectRectanglesRequest? = nil, text: DetectTextRectanglesRequest? = nil,
            bodies: DetectHumanBodyPoseRequest? = nil, hands: DetectHumanHandPoseRequest? = nil,
            personSegmentation: GeneratePersonSegmentationRequest? = nil
        ) {
            (self.bodies, self.hands, self.personSegmentation) = (bodies, hands, personSegmentation)
            self.rectangles = rectangles
            self.text = text
            self.faceDetection = faceDetection
            self.faceLandmarks = faceLandmarks
            self.barcodes = barcodes
            self.faceLostAfter = faceLostAfter
            self.codeLostAfter = codeLostAfter
            self.frameBudget = frameBudget
        }
    }

    public let configuration: Configuration
    /// Only faces seen this recently (seconds) are followed without a detection: a face gone
    /// longer waits for the detector, so background texture cannot keep a lost face alive.
    static let followWindow = 0.12
    /// A followed rectangle whose tracker's confidence falls below this is lost.
    static let trackedConfidence: Float = 0.45
    private var faces: FaceTracker
    private var codes: BarcodeTracker
    private var rectangles: RectangleFollower?
    private var bodies: BodyFollower?
    private var hands: HandFollower?
    private var maskSmoother = PersonMaskSmoother()
    private let textReader: BackgroundTextReader?
    private let scanner: FaceScanner?
    private let landmarker: FaceLandmarker?
    private var frameIndex = 0
    private var lastTime = 0.0
    private var framesSinceDetection = Int.max
    /// What the tiled face scans found where, for `skipsStillTiles`.
    private let tiledScanMemory = TiledScanMemory()
    /// Smoothed cost of a full face detection, milliseconds.
    private var detectionCost = 0.0

    public init(configuration: Configuration = Configuration()) throws {
        self.configuration = configuration
        faces = FaceTracker(lostAfter: configuration.faceLostAfter)
        codes = BarcodeTracker(lostAfter: configuration.codeLostAfter)
        rectangles = configuration.rectangles.map { RectangleFollower(detection: $0) }
        textReader = configuration.text.map(BackgroundTextReader.init)
        guard configuration.personLostAfter.isFinite, configuration.personLostAfter >= 0 else {
            throw KameraError.invalidArgument("personLostAfter must be a number of seconds, 0 or more")
        }
        bodies = try configuration.bodies.map { try BodyFollower(request: $0, lostAfter: configuration.personLostAfter) }
        hands = try configuration.hands.map { try HandFollower(request: $0, lostAfter: configuration.personLostAfter) }
        if let request = configuration.personSegmentation, request.regionOfInterest != .fullImage {
            throw KameraError.invalidArgument("LiveScanner segments whole frames: crop the frames instead of setting regionOfInterest")
        }
        if let request = configuration.faceDetection {
            try request.validate()
            // Tracks live in whole-frame coordinates; a face region would move them between
            // frames' detections and follows. Crop the frames instead.
            guard request.regionOfInterest == .fullImage, (configuration.faceLandmarks?.regionOfInterest ?? .fullImage) == .fullImage else {
                throw KameraError.invalidArgument(
                    "LiveScanner looks for faces in whole frames: crop the frames instead of setting regionOfInterest")
            }
            scanner = try FaceScanner(models: request.modelStore)
            landmarker = configuration.detectsLandmarks ? try FaceLandmarker(models: request.modelStore) : nil
        } else {
            (scanner, landmarker) = (nil, nil)
        }
    }

    /// Frames between full face detections now (1 = every frame).
    ///
    /// With a frame budget, full detection may use about half of it on average, and while
    /// faces are being followed it runs at most every other frame: following costs only the
    /// per-face look that a detection also pays for each face, without the whole-frame pass,
    /// and a face entering the view is found one frame later.
    public var detectionInterval: Int {
        if let every = configuration.detectionEvery { return min(30, max(1, every)) }
        guard let budget = configuration.frameBudget, detectionCost > 0 else { return 1 }
        let byCost = min(8, max(1, Int((detectionCost / (budget * 1000 * 0.5)).rounded(.up))))
        return faces.tracks.isEmpty ? byCost : max(2, byCost)
    }

    /// Threads for the per-face looks (the request's, else every core but the one reading
    /// codes: splitting the faces over a core the code reader is using only adds hand-offs).
    private var threads: Int {
        let cores = ProcessInfo.processInfo.activeProcessorCount
        return configuration.faceDetection?.maximumThreads ?? max(1, configuration.barcodes == nil ? cores : cores - 1)
    }

    /// Scans one frame taken at `time` seconds (stream time, increasing).
    public func scan(_ frame: PixelBuffer, at time: Double) throws -> FrameScan {
        guard time >= lastTime || frameIndex == 0 else {
            throw KameraError.invalidArgument("frame times must not go backwards (\(time) after \(lastTime))")
        }
        let rgb = frame.format == .rgb8 ? frame : frame.converted(to: .rgb8)
        let size = rgb.size
        // Codes on another core while this one does the faces.
        let codeResult = Mutex<Result<[BarcodeObservation], any Error>>(.success([]))
        let group = DispatchGroup()
        if let request = configuration.barcodes {
            group.enter()
            DispatchQueue.global().async {
                let result = Result { try request.perform(in: ImageAnalysisContext(Image(pixelBuffer: rgb))) }
                codeResult.withLock { $0 = result }
                group.leave()
            }
        }
        var tracked: [TrackedFace] = []
        var events: [ScanEvent] = []
        var detected = false
        if let scanner, let request = configuration.faceDetection {
            let sampler = TensorSampler(rgb: rgb)
            let detections: [FaceDetection]
            // Detect afresh when due, and whenever no known face was seen recently enough to be
            // followed (frames arriving slowly): following needs recent sightings. A face missed
            // by one follow is found again by the next detection, at most `detectionInterval` frames on.
            let followable = faces.tracks.contains { time - $0.lastSeen <= Self.followWindow }
            if framesSinceDetection >= detectionInterval || !followable {
                let start = DispatchTime.now().uptimeNanoseconds
                var found = try request.candidates(
                    in: sampler, scanner: scanner, memory: configuration.skipsStillTiles ? tiledScanMemory : nil)
                // A known face the full pass missed (small, blurred, half turned) is looked for
                // where it should be, as between detections.
                for track in faces.tracks where time - track.lastSeen <= Self.followWindow {
                    let predicted = track.predictedCenter(at: time)
                    let covered = found.contains { hypot($0.box.center.x - predicted.x, $0.box.center.y - predicted.y) < track.side * 0.5 }
                    if !covered, let again = scanner.follow(track.detection, to: predicted, sampler: sampler) { found.append(again) }
                }
                detections = request.merged(found)
                let cost = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
                detectionCost = detectionCost == 0 ? cost : detectionCost * 0.8 + cost * 0.2
                framesSinceDetection = 1
                detected = true
            } else {
                let targets = faces.tracks.filter { time - $0.lastSeen <= Self.followWindow }
                    .map { (detection: $0.detection, center: $0.predictedCenter(at: time)) }
                let followed = FaceScanner.concurrentCompactMap(targets, threads: threads) {
                    scanner.follow($0.detection, to: $0.center, sampler: sampler)
                }
                detections = request.merged(followed)
                framesSinceDetection += 1
            }
            let (matched, faceEvents) = faces.update(detections, at: time)
            events += faceEvents
            let landmarks = configuration.faceLandmarks, landmarker = self.landmarker, isDetected = detected
            // Landmarks are a few model runs per face: spread over the cores; boxes alone are not worth a thread.
            tracked = FaceScanner.concurrentCompactMap(
                matched.map { (id: $0.0, detection: $0.1) }, threads: landmarker == nil ? 1 : threads
            ) { face in
                let observation =
                    if let landmarker, let landmarks {
                        landmarks.observation(for: face.detection, imageSize: size, sampler: sampler, landmarker: landmarker)
                    } else {
                        DetectFaceRectanglesRequest.observation(face.detection, imageSize: size)
                    }
                return TrackedFace(faceID: face.id, observation: observation, isDetected: isDetected)
            }
            tracked.sort { $0.faceID < $1.faceID }
        }
        group.wait()
        let (barcodes, codeEvents) = codes.update(
            try codeResult.withLock { try $0.get() }, at: time,
            frameDiagonal: hypot(size.width, size.height))
        events += codeEvents
        // Text started on this frame when the last detection has finished (never waited for).
        let text = try textReader?.offer(rgb, at: time)
        let people = try scanPeople(rgb, at: time)
        events += people.events
        var followedRectangles: [TrackedRectangle] = []
        if var follower = rectangles {
            let (found, rectangleEvents) = try follower.update(rgb, at: time)
            rectangles = follower
            followedRectangles = found
            events += rectangleEvents
        }
        defer {
            frameIndex += 1
            lastTime = time
        }
        return FrameScan(
            time: time, frameIndex: frameIndex, faces: tracked, barcodes: barcodes, rectangles: followedRectangles, events: events,
            ranFaceDetection: detected, text: text, bodies: people.bodies, hands: people.hands, personMask: people.mask)
    }

    /// Bodies, then hands (led to by the bodies' wrists), then the person mask, on this thread.
    private func scanPeople(
        _ rgb: PixelBuffer, at time: Double
    ) throws -> (bodies: [TrackedBody], hands: [TrackedHand], mask: PersonSegmentationObservation?, events: [ScanEvent]) {
        guard bodies != nil || hands != nil || configuration.personSegmentation != nil else { return ([], [], nil, []) }
        let sampler = TensorSampler(rgb: rgb)
        var events: [ScanEvent] = []
        var foundBodies: [TrackedBody] = []
        if var follower = bodies {
            let (found, bodyEvents) = follower.update(sampler, at: time)
            (bodies, foundBodies) = (follower, found)
            events += bodyEvents
        }
        var foundHands: [TrackedHand] = []
        if var follower = hands {
            let (found, handEvents) = follower.update(sampler, bodies: foundBodies.map(\.observation), at: time)
            (hands, foundHands) = (follower, found)
            events += handEvents
        }
        var mask: PersonSegmentationObservation?
        if let request = configuration.personSegmentation {
            let raw = try request.perform(in: ImageAnalysisContext(Image(pixelBuffer: rgb)))
            let steady = maskSmoother.smooth(FloatMask(width: raw.width, height: raw.height, values: raw.values))
            mask = PersonSegmentationObservation(mask: steady, imageSize: raw.imageSize)
        }
        return (foundBodies, foundHands, mask, events)
    }

    /// Blocks until the text detection under way (if any) has finished, so that the next
    /// frame reports it: a file read faster than real time would otherwise end before text is
    /// found (a camera should not wait: text keeps its own pace there).
    public func waitForText() { textReader?.waitUntilIdle() }

    /// Ends the stream: every face and code still in view is reported lost.
    public func finish() -> [ScanEvent] {
        faces.finish(at: lastTime) + codes.finish(at: lastTime) + (rectangles?.finish(at: lastTime) ?? [])
            + (bodies?.finish(at: lastTime) ?? []) + (hands?.finish(at: lastTime) ?? [])
    }
}
