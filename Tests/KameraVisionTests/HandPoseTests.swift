import Foundation
import Kamera
import KameraTestMedia
import KameraTestTiers
import Testing

/// `DetectHumanHandPoseRequest` on real photos, checked against the body pose (an independent
/// model): each hand's wrist lies at the body's wrist on the same side, and the fingers spread
/// from the wrist in the order a hand has them. (No Debian or PyPI package ships close-up hand
/// photos, so the palm detector's path is covered by the model comparison with LiteRT only.)
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

    @Test("The limit, no hands in a street, and bad limits as typed errors")
    func limitsAndNone() async throws {
        let photo = try SampleMedia.photo("messi5.jpg")
        #expect(try await DetectHumanHandPoseRequest(maximumHandCount: 1).perform(on: photo).count == 1)
        #expect(try await DetectHumanHandPoseRequest().perform(on: try SampleMedia.photo("building.jpg")).isEmpty)
        await #expect(throws: KameraError.self) { try await DetectHumanHandPoseRequest(maximumHandCount: 0).perform(on: photo) }
    }
}
