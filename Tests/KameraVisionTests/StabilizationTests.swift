import Foundation
import Kamera
import KameraTestMedia
import KameraTestTiers
import Testing

@testable import KameraVision

/// Stabilization on real footage (vtest.avi, a fixed camera) shaken along a known path: the
/// measured motion against the truth, and the steadied path judged from the truth, not from
/// the stabilizer's own estimates.
@Suite(.tier(.media)) struct StabilizationTests {
    /// The truth motion from frame k−1 to k: a shaken frame's point p is source point
    /// c + R(roll)·p, so p in k−1 appears in k at R(−roll_k)·(c_{k−1} − c_k + R(roll_{k−1})·p).
    static func truthMotion(_ before: ShakenClip.Pose, _ after: ShakenClip.Pose) -> SimilarityTransform {
        let back = SimilarityTransform(rotation: -after.roll)
        let shift = back.apply(PixelPoint(x: before.centre.x - after.centre.x, y: before.centre.y - after.centre.y))
        return SimilarityTransform(rotation: before.roll - after.roll, translationX: shift.x, translationY: shift.y)
    }

    /// Where the output's centre and roll sit in the source, frame by frame.
    static func outputPath(_ clip: ShakenClip, plan: StabilizationPlan) -> [(x: Double, y: Double, roll: Double)] {
        clip.poses.indices.map { k in
            let transform = plan.outputTransform(forFrame: k)
            let p = transform.inverse.apply(PixelPoint(x: 0, y: 0))
            let turned = SimilarityTransform(rotation: clip.poses[k].roll).apply(p)
            return (clip.poses[k].centre.x + turned.x, clip.poses[k].centre.y + turned.y, clip.poses[k].roll - transform.rotation)
        }
    }

    /// RMS frame-to-frame change of the step (second difference): the jerk a viewer sees.
    static func jerk(_ values: [Double]) -> Double {
        guard values.count > 2 else { return 0 }
        var total = 0.0
        for k in 1..<(values.count - 1) {
            let term: Double = values[k - 1] - 2 * values[k] + values[k + 1]
            total += term * term
        }
        return (total / Double(values.count - 2)).squareRoot()
    }

    @Test func measuredMotionMatchesTheKnownShake() throws {
        let clip = try ShakenClip.make(seed: 37, frameCount: 25)
        let grays = clip.frames.map { $0.converted(to: .gray8) }
        let w = Double(grays[0].width) / 2, h = Double(grays[0].height) / 2
        var errors: [Double] = []
        for k in 1..<grays.count {
            let measured = try CameraMotion.estimate(from: grays[k - 1], to: grays[k])
            #expect(measured.confidence > 0.3, "frame \(k): confidence \(measured.confidence)")
            let truth = Self.truthMotion(clip.poses[k - 1], clip.poses[k])
            // The fit judged where it matters: how far it puts the frame's corners.
            let corners = [(-w, -h), (w, -h), (w, h), (-w, h)].map { PixelPoint(x: $0.0, y: $0.1) }
            errors.append(
                corners.map { c in
                    let a = measured.transform.apply(c), b = truth.apply(c)
                    return hypot(a.x - b.x, a.y - b.y)
                }.max()!)
        }
        let mean = errors.reduce(0, +) / Double(errors.count)
        #expect(mean < 0.5, "mean corner error \(mean) px")
        #expect(errors.max()! < 1.5, "worst corner error \(errors.max()!) px")
    }

    @Test func planSteadiesTheShakenClip() throws {
        let clip = try ShakenClip.make(seed: 38, frameCount: 100)
        let grays = clip.frames.map { $0.converted(to: .gray8) }
        let motions = try (1..<grays.count).map { try CameraMotion.estimate(from: grays[$0 - 1], to: grays[$0]) }
        let plan = try StabilizationPlan(
            motions: motions, width: grays[0].width, height: grays[0].height, frameRate: clip.frameRate, mode: .standard)
        #expect(plan.corrections.count == clip.frames.count)
        #expect(plan.zoom >= 1 && plan.zoom <= 1 / (1 - 0.12) + 1e-9, "zoom \(plan.zoom)")
        let before = (clip.poses.map(\.centre.x), clip.poses.map(\.centre.y), clip.poses.map(\.roll))
        let after = Self.outputPath(clip, plan: plan)
        let shaken = hypot(Self.jerk(before.0), Self.jerk(before.1))
        let steadied = hypot(Self.jerk(after.map(\.x)), Self.jerk(after.map(\.y)))
        #expect(steadied < shaken / 8, "jerk \(steadied) px against \(shaken) px shaken")
        #expect(Self.jerk(after.map(\.roll)) < Self.jerk(before.2) / 4)
        // Frames come out the same size and moved: the first frame's picture is not the input's.
        let rendered = try plan.render(clip.frames[50], index: 50)
        #expect(rendered.width == clip.frames[50].width && rendered.height == clip.frames[50].height)
        #expect(rendered.bytes != clip.frames[50].bytes)
    }

    @Test func liveStabilizerHoldsFramesBackByItsLatencyAndSteadies() throws {
        let clip = try ShakenClip.make(seed: 39, frameCount: 60)
        var live = try LiveVideoStabilizer(mode: .standard, frameRate: clip.frameRate, latency: 0.5)
        #expect(live.delay == Int((0.5 * clip.frameRate).rounded()))
        var out: [LiveVideoStabilizer.Frame] = []
        for (index, frame) in clip.frames.enumerated() {
            let ready = try live.push(frame, at: Double(index) / clip.frameRate)
            #expect(ready.count == (index < live.delay ? 0 : 1), "frame \(index)")
            out += ready
        }
        out += try live.finish()
        #expect(out.count == clip.frames.count)
        #expect(out.map(\.time) == clip.frames.indices.map { Double($0) / clip.frameRate })
        // The motion left between steadied frames, measured on them, against the shaken input's.
        func shake(_ frames: [PixelBuffer]) throws -> Double {
            let grays = frames.map { $0.converted(to: .gray8) }
            let steps = try (1..<grays.count).map { try CameraMotion.estimate(from: grays[$0 - 1], to: grays[$0]).transform }
            return Self.jerk(steps.map(\.translationX)) + Self.jerk(steps.map(\.translationY))
        }
        let input = try shake(Array(clip.frames[10..<50])), output = try shake(out[10..<50].map(\.pixelBuffer))
        #expect(output < input / 3, "live: \(output) against \(input)")
    }
}

/// The stabilizer's arithmetic and its refusals, without media.
@Suite(.tier(.unit)) struct StabilizationMathTests {
    @Test func similarityAlgebraRoundTrips() {
        let a = SimilarityTransform(scale: 1.03, rotation: 0.02, translationX: 12.5, translationY: -7)
        let b = SimilarityTransform(scale: 0.98, rotation: -0.05, translationX: -3, translationY: 4)
        let p = PixelPoint(x: 100, y: -40)
        let both = a.after(b).apply(p), stepwise = a.apply(b.apply(p))
        #expect(abs(both.x - stepwise.x) < 1e-9 && abs(both.y - stepwise.y) < 1e-9)
        let back = a.inverse.apply(a.apply(p))
        #expect(abs(back.x - p.x) < 1e-9 && abs(back.y - p.y) < 1e-9)
        let matrix = a.pixelMatrix(width: 640, height: 480)
        let again = SimilarityTransform(pixelMatrix: matrix, width: 640, height: 480)!
        #expect(abs(again.scale - a.scale) < 1e-12 && abs(again.rotation - a.rotation) < 1e-12)
        #expect(abs(again.translationX - a.translationX) < 1e-9 && abs(again.translationY - a.translationY) < 1e-9)
        #expect(SimilarityTransform(pixelMatrix: [1, 0, .nan, 0, 1, 0], width: 640, height: 480) == nil)
    }

    @Test func aShiftNeedsTheZoomThatHidesIt() throws {
        let plan = try StabilizationPlan(motions: [], width: 640, height: 480, frameRate: 30, mode: .standard)
        #expect(plan.zoom == 1 && plan.corrections == [.identity])
        // 32 px across on a 640-px frame: 320 / (320 − 32).
        let needed = StabilizationCrop(width: 640, height: 480).zoomNeeded(for: SimilarityTransform(translationX: 32))
        #expect(abs(needed - 320.0 / 288.0) < 1e-9)
        #expect(StabilizationCrop(width: 640, height: 480).zoomNeeded(for: SimilarityTransform(translationX: 400)) == .infinity)
    }

    @Test func hostileNumbersAreRefusedOrIgnored() throws {
        for (rate, crop) in [(0.0, 0.1), (.nan, 0.1), (.infinity, 0.1), (30, 0.5), (30, -0.1), (30, .nan)] {
            #expect(throws: KameraError.self) {
                try StabilizationPlan(motions: [], width: 64, height: 48, frameRate: rate, mode: .standard, maximumCrop: crop)
            }
        }
        // Motions no camera makes (and non-numbers) count as none; the plan stays finite.
        let wild = [
            CameraMotion(transform: SimilarityTransform(scale: .nan), confidence: 1),
            CameraMotion(transform: SimilarityTransform(rotation: 3), confidence: 1),
            CameraMotion(transform: SimilarityTransform(translationX: .infinity), confidence: 1),
            CameraMotion(transform: SimilarityTransform(translationX: 1e300), confidence: 1),
        ]
        let plan = try StabilizationPlan(motions: wild, width: 64, height: 48, frameRate: 30, mode: .cinematic)
        #expect(plan.corrections.allSatisfy(\.isFinite) && plan.zoom.isFinite)
        #expect(throws: KameraError.self) { try LiveVideoStabilizer(mode: .standard, frameRate: 30, latency: 3) }
        #expect(throws: KameraError.self) { try LiveVideoStabilizer(mode: .standard, frameRate: -1) }
        var live = try LiveVideoStabilizer(mode: .standard, frameRate: 30)
        _ = try live.push(PixelBuffer(width: 64, height: 48, format: .gray8), at: 0)
        #expect(throws: KameraError.self) { try live.push(PixelBuffer(width: 32, height: 48, format: .gray8), at: 0.1) }
        #expect(throws: KameraError.self) {
            try CameraMotion.estimate(
                from: PixelBuffer(width: 64, height: 48, format: .gray8), to: PixelBuffer(width: 48, height: 48, format: .gray8))
        }
    }
}
