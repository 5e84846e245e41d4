import Dispatch
import Foundation
import KameraCore
import KameraNN
import Synchronization

/// Finds faces of every size in an image: BlazeFace full range on the whole (letterboxed)
/// image, then the full-range model slid over the image (`ScanBlocks`) at each scale where
/// faces down to `minimumFaceSize` pixels would be too small for the whole-image pass; all
/// detections are merged by weighted NMS.
struct FaceScanner: Sendable {
    let shortRange: BlazeFaceDetector
    let fullRange: BlazeFaceDetector

    init(models: ModelStore) throws {
        shortRange = try BlazeFaceDetector(.shortRange, models: models)
        fullRange = try BlazeFaceDetector(.fullRange, models: models)
    }

    /// The smallest face (in tensor pixels) the full-range model reliably finds.
    private static let smallestFaceInTensor = 20.0
    /// The geometric middle of the 20–60 px faces one scale of the scan finds.
    private static let middleFaceInTensor = 35.0
    /// Score from which the whole-image pass's detection is a face to look at closely: the
    /// threshold MediaPipe's face-detection solution runs both models at (its
    /// `min_detection_confidence`, 0.5), below the full-range graph's own 0.6. A marginal face
    /// the whole image shows small (a 90 px face in a 1024 px photo, 0.59) is then found as
    /// MediaPipe finds it. Such a weak face must pass the closer look at the bar the first look
    /// missed (`weakFaceConfirmationScore`), not the lower one that refines a sure face.
    private static let wholeImageMinimumScore: Float = 0.5
    /// What a closer look must score to confirm a face the first look found below the
    /// full-range graph's 0.6: that same 0.6, from the second model at another scale.
    private static let weakFaceConfirmationScore: Float = 0.6
    /// Score from which a sliding run's detection is a candidate (see `scanScales`).
    private static let scanCandidateScore: Float = 0.4
    /// A closer look crops this many times the face's side: the short-range model's regime
    /// (faces filling about 40 % of its input).
    private static let refineCropScale = 2.5
    /// Score a closer look needs to confirm a face another pass found.
    private static let refineMinimumScore: Float = 0.3
    /// Score a closer look needs on its own, with no fresh detection behind it (following).
    private static let followMinimumScore: Float = 0.6
    /// A candidate of a closer look overlapping the looked-at face more than this (IoU) is it.
    private static let sameFaceOverlap = 0.3

    /// `refines`: look again at each face on its own upright crop (better keypoints and roll,
    /// fewer false detections); the landmark request skips it because Face Mesh re-centres
    /// on the face itself.
    /// `overlapThreshold`: detections overlapping more than this (IoU) are merged as one face.
    /// `memory`: a stream's earlier tiled scans, whose blocks are kept where the picture is still.
    func detect(
        in sampler: TensorSampler, minimumFaceSize: Double?, useTiles: Bool = true, threads: Int,
        refines: Bool = true, range: DetectFaceRectanglesRequest.DetectorRange = .full, overlapThreshold: Double,
        memory: TiledScanMemory? = nil
    ) throws -> [FaceDetection] {
        let width = Double(sampler.image.width), height = Double(sampler.image.height)
        let side = max(width, height)
        let whole = PixelRect(x: (width - side) / 2, y: (height - side) / 2, width: side, height: side)
        // The full-range model finds near and far faces; the short-range one (tuned for faces
        // filling the frame) is the fallback when it finds none, and refines every face below.
        var detections: [FaceDetection]
        switch range {
        case .full:
            // Without closer looks there is no second opinion: the graph's own threshold then.
            detections = fullRange.detect(in: sampler, region: whole, minimumScore: refines ? Self.wholeImageMinimumScore : nil)
            detections = confirmingWeak(detections, sampler: sampler, threads: threads)
            if detections.isEmpty { detections = shortRange.detect(in: sampler, region: whole) }
        case .short:
            detections = shortRange.detect(in: sampler, region: whole)
        }

        if useTiles {
            detections += try scanScales(
                in: sampler, minimumFaceSize: minimumFaceSize, threads: threads, overlapThreshold: overlapThreshold,
                explained: detections, memory: memory)
        }
        // Refined boxes can move onto each other (two passes found one face twice): merge again.
        let merged = WeightedNonMaxSuppression.apply(detections, threshold: overlapThreshold)
        guard refines else { return merged }
        let refinedDetections = Self.concurrentCompactMap(merged, threads: threads) { refined($0, sampler: sampler) }
        return WeightedNonMaxSuppression.apply(refinedDetections, threshold: overlapThreshold)
    }

    /// The whole-image pass's faces scored below the full-range graph's 0.6, each confirmed by
    /// a closer look scoring `weakFaceConfirmationScore` (and then taken as that look found
    /// it), or dropped; a weak detection on a face a sure one already holds is that face.
    private func confirmingWeak(_ detections: [FaceDetection], sampler: TensorSampler, threads: Int) -> [FaceDetection] {
        let sureScore = fullRange.variant.minimumScore
        let sure = detections.filter { $0.score >= sureScore }
        let weak = detections.filter { candidate in
            candidate.score < sureScore && !sure.contains { $0.box.intersectionOverUnion(candidate.box) > Self.sameFaceOverlap }
        }
        guard !weak.isEmpty else { return sure }
        return sure
            + Self.concurrentCompactMap(WeightedNonMaxSuppression.apply(weak, threshold: Self.sameFaceOverlap), threads: threads) {
                refined($0, sampler: sampler, minimumScore: Self.weakFaceConfirmationScore)
            }
    }

    /// The full-range model slid over the image at each scale where faces down to
    /// `minimumFaceSize` pixels are too small for the whole-image pass. Each scale finds faces
    /// of 20 to 60 tensor pixels (a third of the model's native input); scales shrink by 3×
    /// until the whole-image pass covers the rest.
    ///
    /// The sliding run proposes, a crop measures: a sliding run scores a small face lower or
    /// higher than a crop of the native size would, depending on where it falls on the model's
    /// stride grid and what surrounds it (20–30 px faces measured from 0.38 to 0.81), and its
    /// keypoints for a turned face can be off by 20°. So candidates from 0.4 up are kept, and
    /// each is looked at again on a native-size crop centred on it, where the model's own 0.6
    /// decides and its box and keypoints are taken. That keeps the recall, false faces and
    /// keypoints of overlapping crops at three quarters of their model time (`bench/README.md`,
    /// "Faces").
    /// A candidate on a face the whole-image pass already found (`explained`) is not looked at
    /// again: that face has its detection, at the scale the model saw it whole.
    private func scanScales(
        in sampler: TensorSampler, minimumFaceSize: Double?, threads: Int, overlapThreshold: Double,
        explained: [FaceDetection], memory: TiledScanMemory?
    ) throws -> [FaceDetection] {
        let width = Double(sampler.image.width), height = Double(sampler.image.height)
        let side = max(width, height)
        let minimumFace = max(minimumFaceSize ?? max(20, side / 100), 4)
        let native = Double(fullRange.variant.inputSize)
        var view = minimumFace * native / Self.smallestFaceInTensor
        var views: [Double] = []
        var blocks: [ScanBlocks.Block] = []
        var keys: [TiledScanMemory.Key] = []
        while view < side * 0.7 {
            let scale = ScanBlocks.blocks(
                width: width, height: height, scale: native / view, overlap: Int(native) / 3,
                alignment: BlazeFaceDetector.scanAlignment)
            keys += scale.indices.map { TiledScanMemory.Key(scale: views.count, block: $0) }
            blocks += scale
            views.append(view)
            view *= 3
        }
        memory?.begin(sampler.image)
        defer { memory?.end() }
        // In a stream, a block whose picture is still keeps what it found, and one that changed
        // in a few places runs only the patches round the change (`TiledScanMemory`).
        let plans = blocks.indices.map { index -> TiledScanMemory.Plan in
            let block = blocks[index]
            return memory?.plan(keys[index], region: block.region, width: block.width, height: block.height, native: Int(native))
                ?? .whole
        }
        var jobs: [(block: Int, region: PixelRect, width: Int, height: Int)] = []
        for (index, plan) in plans.enumerated() {
            switch plan {
            case .keep: break
            case .whole: jobs.append((index, blocks[index].region, blocks[index].width, blocks[index].height))
            case .patches(let patches, _, _): jobs += patches.map { (index, $0, Int(native), Int(native)) }
            }
        }
        // Runs are independent: spread them over the cores (sessions come from the pool),
        // largest first, each worker taking the next one left. Results are kept per run and
        // joined in run order, so the merge sees the same sequence however the threads were
        // scheduled (same input, same output).
        let order = jobs.indices.sorted { jobs[$0].width * jobs[$0].height > jobs[$1].width * jobs[$1].height }
        let found = Mutex<[Int: Result<[FaceDetection], any Error>]>([:])
        let next = Atomic<Int>(0)
        let detector = fullRange, runs = jobs
        DispatchQueue.concurrentPerform(iterations: max(1, min(order.count, threads))) { _ in
            while true {
                let taken = next.add(1, ordering: .relaxed).oldValue
                guard taken < order.count else { return }
                let run = runs[order[taken]]
                // A face cut by a run's edge is found whole in a neighbouring one; the cut one
                // would drag the merged box, so it is dropped (unless the edge is the image's).
                let margin = run.region.width / Double(run.width) * native * 0.02
                let result = Result {
                    try detector.scan(
                        in: sampler, region: run.region, width: run.width, height: run.height, minimumScore: Self.scanCandidateScore
                    )
                    .filter { !Self.touchesInnerEdge($0.box, of: run.region, margin: margin, width: width, height: height) }
                }
                found.withLock { $0[order[taken]] = result }
            }
        }
        let byRun = try found.withLock { results in try jobs.indices.map { try results[$0]?.get() ?? [] } }
        var scanned: [FaceDetection] = []
        for (index, plan) in plans.enumerated() {
            let ran = jobs.indices.filter { jobs[$0].block == index }
            switch plan {
            case .keep(let candidates):
                scanned += candidates
            case .whole:
                let candidates = ran.flatMap { byRun[$0] }
                memory?.remember(keys[index], region: blocks[index].region, candidates: candidates)
                scanned += candidates
            case .patches(let patches, let kept, let changed):
                // New candidates where the picture changed, the old ones elsewhere.
                let fresh = ran.flatMap { byRun[$0] }.filter { memory?.signature?.touches($0.box, anyOf: changed) ?? true }
                memory?.remember(keys[index], region: blocks[index].region, candidates: kept + fresh, patches: patches)
                scanned += kept + fresh
            }
        }
        let candidates = WeightedNonMaxSuppression.apply(scanned, threshold: overlapThreshold).filter { candidate in
            !explained.contains { $0.box.intersectionOverUnion(candidate.box) > Self.sameFaceOverlap }
        }
        let viewSides = views
        return Self.concurrentCompactMap(candidates, threads: threads) { candidate -> FaceDetection? in
            // The scale whose crops show this face nearest the middle of the 20–60 px range.
            let face = max(candidate.box.width, candidate.box.height)
            func offMiddle(_ view: Double) -> Double { abs(log(face * native / view / Self.middleFaceInTensor)) }
            guard let view = viewSides.min(by: { offMiddle($0) < offMiddle($1) }) else { return nil }
            let center = candidate.box.center
            return detector.detect(
                in: sampler, region: PixelRect(x: center.x - view / 2, y: center.y - view / 2, width: view, height: view)
            )
            .filter { $0.box.intersectionOverUnion(candidate.box) > Self.sameFaceOverlap }
            .max { $0.score < $1.score }
        }
    }

    /// `transform` of each item on up to `threads` threads (faces are independent: each
    /// closer look is one small model run on its own session), results in item order so the
    /// output does not depend on scheduling.
    static func concurrentCompactMap<Item: Sendable, Result: Sendable>(
        _ items: [Item], threads: Int, _ transform: @Sendable (Item) -> Result?
    ) -> [Result] {
        let workers = max(1, min(items.count, threads))
        guard workers > 1 else { return items.compactMap(transform) }
        let results = Mutex<[Result?]>(Array(repeating: nil, count: items.count))
        DispatchQueue.concurrentPerform(iterations: workers) { worker in
            for index in stride(from: worker, to: items.count, by: workers) {
                let result = transform(items[index])
                results.withLock { $0[index] = result }
            }
        }
        return results.withLock { $0.compactMap { $0 } }
    }

    /// Looks again at one face on a crop 2.5× its size, turned upright by its first roll
    /// estimate: the short-range model's best regime. Keypoints from a whole-image or scan
    /// pass are coarse (roll off by 10–30° on faces under 200 px); this pass fixes them.
    /// Finds a known face again in a new frame: its last detection moved to `center` and
    /// looked at closely (the tracking step between full detections).
    func follow(_ detection: FaceDetection, to center: PixelPoint, sampler: TensorSampler) -> FaceDetection? {
        let dx = center.x - detection.box.center.x, dy = center.y - detection.box.center.y
        var moved = detection
        moved.box.x += dx
        moved.box.y += dy
        moved.keypoints = detection.keypoints.map { PixelPoint(x: $0.x + dx, y: $0.y + dy) }
        // Without a fresh detection behind it, the look must be confident on its own: a low
        // bar would keep "finding" a face that has left in the background texture.
        guard let found = refined(moved, sampler: sampler, minimumScore: Self.followMinimumScore, nearest: true),
            abs(log(max(found.box.width, found.box.height) / max(detection.box.width, detection.box.height))) < 0.4
        else { return nil }
        return found
    }

    /// Also a second opinion: a candidate the closer look cannot confirm at all is dropped
    /// (textures that fooled one pass rarely fool a second model at another scale).
    /// `nearest`: of the candidates on this face take the one nearest the expected centre (when
    /// following, two faces close together could make the best score the neighbour's);
    /// otherwise the most confident.
    private func refined(
        _ detection: FaceDetection, sampler: TensorSampler, minimumScore: Float = Self.refineMinimumScore,
        nearest: Bool = false, again: Bool = false
    ) -> FaceDetection? {
        let right = detection.keypoints[FaceDetection.rightEye], left = detection.keypoints[FaceDetection.leftEye]
        let side = max(detection.box.width, detection.box.height) * Self.refineCropScale
        let region = RotatedRect(
            center: detection.box.center, width: side, height: side,
            angle: atan2(left.y - right.y, left.x - right.x))
        let candidates = shortRange.detect(in: sampler, region: region, minimumScore: minimumScore)
        let center = detection.box.center
        let onFace = candidates.filter { $0.box.intersectionOverUnion(detection.box) > Self.sameFaceOverlap }
        func distance(_ d: FaceDetection) -> Double { hypot(d.box.center.x - center.x, d.box.center.y - center.y) }
        guard let best = nearest ? onFace.min(by: { distance($0) < distance($1) }) : onFace.max(by: { $0.score < $1.score })
        else { return nil }
        let refined = FaceDetection(box: best.box, keypoints: best.keypoints, score: max(detection.score, best.score))
        // The crop was turned by the first, coarse roll; if the closer look says the face is
        // turned quite differently (strongly rolled faces), look once more from upright.
        let newRight = refined.keypoints[FaceDetection.rightEye], newLeft = refined.keypoints[FaceDetection.leftEye]
        let newAngle = atan2(newLeft.y - newRight.y, newLeft.x - newRight.x)
        if !again, abs(remainder(newAngle - region.angle, 2 * .pi)) > 15 * .pi / 180 {
            return self.refined(refined, sampler: sampler, minimumScore: minimumScore, nearest: nearest, again: true) ?? refined
        }
        return refined
    }

    private static func touchesInnerEdge(
        _ box: PixelRect, of block: PixelRect, margin: Double, width: Double, height: Double
    ) -> Bool {
        if box.minX < block.minX + margin, block.minX > 0 { return true }
        if box.minY < block.minY + margin, block.minY > 0 { return true }
        if box.maxX > block.maxX - margin, block.maxX < width { return true }
        if box.maxY > block.maxY - margin, block.maxY < height { return true }
        return false
    }
}

/// Head angles from the detector's keypoints (without the mesh): roll from the eyes, yaw
/// from how far the nose tip sits off the eyes' midpoint, pitch from where it sits between
/// the eyes and the mouth. Calibrated to agree with the mesh's pose; within ±10° or so.
enum KeypointPose {
    static func angles(_ keypoints: [PixelPoint]) -> (roll: Double, yaw: Double, pitch: Double) {
        let right = keypoints[FaceDetection.rightEye], left = keypoints[FaceDetection.leftEye]
        let nose = keypoints[FaceDetection.noseTip], mouth = keypoints[FaceDetection.mouth]
        // Image y points down; roll is counter-clockwise as seen.
        let roll = atan2(-(left.y - right.y), left.x - right.x)
        // Work in the face's upright frame.
        let c = cos(roll), s = sin(roll)
        func upright(_ p: PixelPoint) -> (x: Double, y: Double) { (p.x * c - p.y * s, p.x * s + p.y * c) }
        let n = upright(nose)
        let eyes = upright(PixelPoint(x: (left.x + right.x) / 2, y: (left.y + right.y) / 2)), m = upright(mouth)
        // Turned by yaw θ, the nose tip (depth d in front of the eyes) moves d·sin θ off the eyes'
        // midpoint while the eye span shrinks to 2e·cos θ: offset / span = (d / 2e)·tan θ. The
        // ratio d / 2e is calibrated against the mesh's pose (`HeadPose`) so both requests
        // report one estimate: mean difference 3.5° over Megamind.avi's 250 faces and the
        // three sample photos within 7°. The ear keypoints are not used: the far one is
        // guessed on the cheek once the face turns, which made yaw overshoot (64° for 25°).
        let eyeSpan = max(hypot(left.x - right.x, left.y - right.y), 1e-6)
        let yaw = atan((n.x - eyes.x) / eyeSpan / Self.noseDepthToEyeSpan)
        let vertical = max(m.y - eyes.y, 1e-6)
        // A level face (by the mesh's pose) has the nose tip ~49 % of the way from the eyes to the mouth.
        let pitch = atan((0.49 - (n.y - eyes.y) / vertical) * 2.2)
        return (roll, yaw, pitch)
    }

    /// The nose tip's depth in front of the eyes over the distance between the eyes.
    static let noseDepthToEyeSpan = 0.65
}
