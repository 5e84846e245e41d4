import Foundation
import Kamera
import KameraTestMedia
import KameraTestTiers
import Testing

/// `TrackObjectRequest` and `TrackRectangleRequest` through real-video sequences with the
/// true box of every frame: motion with scale and turn, a cover, an exit and return.
@Suite(.tier(.unit)) struct ObjectTrackingTests {
    /// Runs an object tracker from the first frame's true box; per frame: box and confidence.
    static func track(_ sequence: TrackingSequence, level: TrackingLevel) async throws -> [DetectedObjectObservation] {
        let first = try #require(sequence.frames.first?.box)
        let request = TrackObjectRequest(
            detectedObject: DetectedObjectObservation(pixelBox: first, imageSize: sequence.frames[0].image.size))
        request.trackingLevel = level
        var results: [DetectedObjectObservation] = []
        for frame in sequence.frames { results.append(try await request.perform(on: frame.image)) }
        return results
    }

    /// Success (IoU > 0.5 and confident) on frames where the target can be seen, and whether
    /// every frame where it cannot be seen was reported with low confidence.
    static func score(_ sequence: TrackingSequence, _ results: [DetectedObjectObservation]) -> (success: Double, goneFlagged: Bool) {
        var hits = 0, visible = 0, flagged = true
        for (frame, result) in zip(sequence.frames, results).dropFirst() {
            if let truth = frame.box {
                visible += 1
                if result.confidence >= 0.45, result.pixelBox.intersectionOverUnion(truth) > 0.5 { hits += 1 }
            } else if result.confidence >= 0.45 {
                flagged = false
            }
        }
        return (Double(hits) / Double(max(1, visible)), flagged)
    }

    @Test("Sliding, scaling ×0.75–1.35 and turning up to 30°: followed in every frame, both levels")
    func motion() async throws {
        let sequence = try TrackingSequence.make(video: "vtest.avi", target: .photo, challenge: .motion, seed: 3000, frameCount: 80)
        for level in TrackingLevel.allCases {
            let results = try await Self.track(sequence, level: level)
            let (success, _) = Self.score(sequence, results)
            #expect(success >= 0.95, "\(level): \(success)")
            // Centre error: a pixel or two, not the drift of a box that lost scale.
            let errors = zip(sequence.frames, results).compactMap { frame, result in
                frame.box.map { hypot($0.center.x - result.pixelBox.center.x, $0.center.y - result.pixelBox.center.y) }
            }.sorted()
            #expect(errors[errors.count / 2] < 2, "\(level): median centre error \(errors[errors.count / 2])")
        }
    }

    @Test("Covered by a panel: confidence drops while it is covered, and the object is followed again after")
    func occlusion() async throws {
        let sequence = try TrackingSequence.make(video: "Megamind.avi", target: .photo, challenge: .occlusion, seed: 3007, frameCount: 90)
        let results = try await Self.track(sequence, level: .accurate)
        let (success, flagged) = Self.score(sequence, results)
        #expect(flagged, "covered frames must have low confidence")
        #expect(success >= 0.85, "\(success)")
        // The last 20 frames (well after the cover went) are followed again.
        let tail = Array(zip(sequence.frames, results).suffix(20))
        #expect(tail.allSatisfy { frame, result in result.confidence >= 0.45 && result.pixelBox.intersectionOverUnion(frame.box!) > 0.5 })
    }

    @Test("Leaving the frame and coming back: lost while out, found again by itself")
    func exitAndReturn() async throws {
        let sequence = try TrackingSequence.make(video: "vtest.avi", target: .photo, challenge: .exit, seed: 3002, frameCount: 90)
        let results = try await Self.track(sequence, level: .accurate)
        let (success, flagged) = Self.score(sequence, results)
        #expect(flagged, "frames with the object out of view must have low confidence")
        #expect(success >= 0.8, "\(success)")
        let last = try #require(zip(sequence.frames, results).suffix(10).first)
        #expect(last.1.pixelBox.intersectionOverUnion(try #require(last.0.box)) > 0.5, "re-acquired")
    }

    @Test("A card followed by its corners within a few pixels")
    func rectangleCorners() async throws {
        let sequence = try TrackingSequence.make(video: "vtest.avi", target: .card, challenge: .motion, seed: 3003, frameCount: 60)
        let size = sequence.frames[0].image.size
        let request = TrackRectangleRequest(
            detectedRectangle: RectangleObservation(pixelCorners: sequence.frames[0].corners, imageSize: size, confidence: 1))
        var errors: [Double] = []
        for frame in sequence.frames {
            let result = try await request.perform(on: frame.image)
            #expect(result.confidence >= 0.45)
            errors.append(zip(result.pixelCorners.corners, frame.corners.corners).map { $0.distance(to: $1) }.max()!)
        }
        errors.sort()
        #expect(errors[errors.count / 2] < 4, "median corner error \(errors[errors.count / 2])")
        #expect(errors[errors.count * 9 / 10] < 8, "90th percentile \(errors[errors.count * 9 / 10])")
    }

    @Test("A new inputObservation restarts from it; isLastFrame releases the tracker")
    func restart() async throws {
        let sequence = try TrackingSequence.make(video: "vtest.avi", target: .photo, challenge: .motion, seed: 3000, frameCount: 6)
        let size = sequence.frames[0].image.size
        let request = TrackObjectRequest(detectedObject: DetectedObjectObservation(pixelBox: sequence.frames[0].box!, imageSize: size))
        let first = try await request.perform(on: sequence.frames[0].image)
        #expect(first.confidence == 1 && first.pixelBox == sequence.frames[0].box!)
        _ = try await request.perform(on: sequence.frames[1].image)
        // Re-detected by the caller on frame 3: the result there is that box, as given.
        let redetected = PixelRect(x: 100, y: 100, width: 80, height: 60)
        request.inputObservation = DetectedObjectObservation(pixelBox: redetected, imageSize: size)
        #expect(try await request.perform(on: sequence.frames[3].image).pixelBox == redetected)
        request.isLastFrame = true
        _ = try await request.perform(on: sequence.frames[4].image)
        // Released: the next frame starts over from the input observation.
        request.isLastFrame = false
        #expect(try await request.perform(on: sequence.frames[5].image).pixelBox == redetected)
    }

    @Test("Degenerate and outside boxes, changing frame sizes, tiny and one-colour frames: typed errors, no crash")
    func badInput() async throws {
        let frame = PixelBuffer(width: 320, height: 240, format: .rgb8, filledWith: [90, 120, 150])
        let size = frame.size
        func isArgumentError(_ error: any Error) -> Bool { (error as? KameraError)?.code == .invalidArgument }
        for box in [
            PixelRect(x: 10, y: 10, width: 0, height: 20), PixelRect(x: 10, y: 10, width: 2, height: 2),
            PixelRect(x: 400, y: 300, width: 50, height: 50), PixelRect(x: .nan, y: 0, width: 10, height: 10),
        ] {
            let request = TrackObjectRequest(detectedObject: DetectedObjectObservation(pixelBox: box, imageSize: size))
            await #expect(performing: { _ = try await request.perform(on: frame) }, throws: isArgumentError)
        }
        // One colour: nothing to follow, so the confidence is low at once (and nothing crashes).
        let flat = TrackObjectRequest(
            detectedObject: DetectedObjectObservation(pixelBox: PixelRect(x: 100, y: 80, width: 60, height: 50), imageSize: size))
        _ = try await flat.perform(on: frame)
        #expect(try await flat.perform(on: frame).confidence < 0.45)
        // The frame size changes mid-stream.
        await #expect(
            performing: { _ = try await flat.perform(on: PixelBuffer(width: 160, height: 120, format: .rgb8)) }, throws: isArgumentError)
        // A frame smaller than the tracker works with.
        let tiny = TrackObjectRequest(
            detectedObject: DetectedObjectObservation(
                pixelBox: PixelRect(x: 1, y: 1, width: 6, height: 6), imageSize: Size(width: 8, height: 8)))
        await #expect(throws: KameraError.self) { _ = try await tiny.perform(on: PixelBuffer(width: 8, height: 8, format: .gray8)) }
    }
}
