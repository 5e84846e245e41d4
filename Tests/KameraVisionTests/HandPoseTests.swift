import Foundation
import Kamera
import KameraTestMedia
import KameraTestTiers
import Testing

/// `DetectHumanHandPoseRequest` on real photos, checked against the body pose (an independent
/// model): each hand's wrist lies at the body's wrist on the same side, and the fingers spread
/// from the wrist in the order a hand has them; and on opencv-doc's close-up of a hand (its
/// back-projection tutorial's `handSrc.jpg`: an open left palm, wrist at the left edge, thumb at
/// the top, fingers to the right), where the palm detector finds it.
@Suite("Hand pose on real photos", .tier(.models))
struct HandPoseTests {
    @Test("A footballer's two hands: left and right at the body's wrists, fingertips beyond their knuckles")
    func twoHands() async throws {
        let photo = try SampleMedia.photo("messi5.jpg")
        let hands = try await DetectHumanHandPoseRequest().perform(on: photo)
        let body = try #require(try await DetectHumanBodyPoseRequest().perform(on: photo).first)
        #expect(Set(hands.map(\.chirality)) == [.left, .right], "\(hands.map(\.chirality))")
        for hand in hands {
            #expect(hand.confidence >= 0.9)
            let joints = hand.recognizedPoints()
            #expect(joints.count == 21)
            let wrist = joints[.wrist]!.pixelLocation
            let bodyWrist = body.recognizedPoint(hand.chirality == .left ? .leftWrist : .rightWrist).pixelLocation
            #expect(wrist.distance(to: bodyWrist) < 15, "\(hand.chirality): wrist \(wrist), body's \(bodyWrist)")
            // Each finger's tip lies farther from the wrist than its base joint.
            let outward = [
                (.indexMCP, .indexTip), (.middleMCP, .middleTip), (.ringMCP, .ringTip), (.littleMCP, .littleTip), (.thumbCMC, .thumbTip),
            ].filter { (base: HumanHandPoseObservation.JointName, tip: HumanHandPoseObservation.JointName) in
                joints[tip]!.pixelLocation.distance(to: wrist) > joints[base]!.pixelLocation.distance(to: wrist)
            }
            #expect(outward.count >= 4, "\(hand.chirality): \(outward.count) of 5 fingers point away from the wrist")
            #expect(hand.recognizedPoints(.thumb).count == 4)
        }
    }

    @Test("A close-up hand: the palm detector's path, fingers where the photo has them, the same joints a quarter turn on")
    func closeUp() async throws {
        let photo = try SampleMedia.photo("handSrc.jpg")
        let hands = try await DetectHumanHandPoseRequest().perform(on: photo)
        let hand = try #require(hands.first)
        #expect(hands.count == 1, "one hand in the photo, \(hands.count) found")
        #expect(hand.confidence >= 0.9)
        let joints = hand.recognizedPoints().mapValues(\.pixelLocation)
        // The wrist at the photo's left edge, the fingertips in its right half.
        #expect(joints[.wrist]!.x < 80, "wrist \(joints[.wrist]!)")
        for tip in [HumanHandPoseObservation.JointName.indexTip, .middleTip, .ringTip, .littleTip] {
            #expect(joints[tip]!.x > 380, "\(tip) \(joints[tip]!)")
        }
        // Thumb at the top, then index, middle, ring and little finger downwards.
        let tips: [HumanHandPoseObservation.JointName] = [.thumbTip, .indexTip, .middleTip, .ringTip, .littleTip]
        #expect(zip(tips, tips.dropFirst()).allSatisfy { joints[$0]!.y < joints[$1]!.y }, "\(tips.map { joints[$0]! })")
        // The photo turned a quarter clockwise: the same joints, turned (x' = h − 1 − y, y' = x).
        let turned = Image(pixelBuffer: photo.pixelBuffer.rotated(byQuarterTurns: 1))
        let turnedHand = try #require(try await DetectHumanHandPoseRequest().perform(on: turned).first)
        let span = joints[.wrist]!.distance(to: joints[.middleTip]!)
        for (name, point) in turnedHand.recognizedPoints().mapValues(\.pixelLocation) {
            let expected = PixelPoint(x: Double(photo.height) - 1 - joints[name]!.y, y: joints[name]!.x)
            #expect(point.distance(to: expected) < 0.05 * span, "\(name): \(point), expected \(expected)")
        }
    }

    @Test("The limit, no hands in a street, and bad limits as typed errors")
    func limitsAndNone() async throws {
        let photo = try SampleMedia.photo("messi5.jpg")
        #expect(try await DetectHumanHandPoseRequest(maximumHandCount: 1).perform(on: photo).count == 1)
        #expect(try await DetectHumanHandPoseRequest().perform(on: try SampleMedia.photo("building.jpg")).isEmpty)
        await #expect(throws: KameraError.self) { try await DetectHumanHandPoseRequest(maximumHandCount: 0).perform(on: photo) }
    }
}
