import Foundation
import KameraCore
import KameraTestTiers
import Testing

@testable import KameraNN

@Suite("Networks computing only some of a model's outputs", .tier(.models))
struct OutputPruningTests {
    /// A smooth image-like input in −1…1 with some texture, so every branch sees varied values.
    private static func input(count: Int) -> [Float] {
        (0..<count).map { i in sin(Float(i) * 0.013) * 0.7 + Float((i * 7919) % 101) / 101 * 0.3 - 0.15 }
    }

    @Test("BlazePose's landmark model without its person mask: the kept outputs are the whole model's, bit for bit, in fewer steps")
    func poseWithoutMask() throws {
        let whole = try ModelStore.default.network(.poseLandmarkFull)
        #expect(whole.outputShapes.count == 5)
        #expect(whole.outputShapes[2] == [1, 256, 256, 1])
        let kept = try whole.keepingOutputs([0, 1, 3, 4])
        #expect(kept.outputShapes == [whole.outputShapes[0], whole.outputShapes[1], whole.outputShapes[3], whole.outputShapes[4]])
        #expect(kept.outputNames == [0, 1, 3, 4].map { whole.outputNames[$0] })
        // The mask's branch: two upsamplings with five blocks of 128² and 256² layers.
        #expect(kept.stepCount <= whole.stepCount - 15)
        let input = Self.input(count: 256 * 256 * 3)
        let all = try whole.makeSession().run(input)
        let some = try kept.makeSession().run(input)
        #expect(some == [all[0], all[1], all[3], all[4]])
        // Not a trivially empty run: the landmarks vary.
        #expect(Set(all[0]).count > 100)
    }

    @Test("Outputs can be reordered and pruning composes with resizing")
    func orderAndResize() throws {
        let whole = try ModelStore.default.network(.faceDetectionFullRange)
        let reversed = try whole.keepingOutputs([1, 0])
        #expect(reversed.outputShapes == [whole.outputShapes[1], whole.outputShapes[0]])
        let input = Self.input(count: 192 * 192 * 3)
        let all = try whole.makeSession().run(input)
        #expect(try reversed.makeSession().run(input) == [all[1], all[0]])
        // The scores alone, then resized: as the resized whole model's scores.
        let scores = whole.outputShapes.firstIndex { $0.last == 1 }!
        let resizedScores = try whole.keepingOutputs([scores]).resized(height: 256, width: 384)
        let resizedWhole = try whole.resized(height: 256, width: 384)
        let wide = Self.input(count: 256 * 384 * 3)
        #expect(try resizedScores.makeSession().run(wide) == [resizedWhole.makeSession().run(wide)[scores]])
        #expect(resizedScores.stepCount < resizedWhole.stepCount)
    }

    @Test("Empty, repeated or out-of-range output positions are a typed error", arguments: [[], [0, 0], [5], [-1], [0, 9]])
    func badPositions(positions: [Int]) throws {
        let whole = try ModelStore.default.network(.poseLandmarkFull)
        #expect(throws: KameraError.self) { try whole.keepingOutputs(positions) }
        #expect(throws: KameraError.self) { try ModelStore.default.sessions(.poseLandmarkFull, keepingOutputs: positions) }
    }
}
