import KameraCore

/// A hand's pose, like Vision's `HumanHandPoseObservation`: Vision's 21 joint names and the
/// hand's chirality.
public struct HumanHandPoseObservation: Sendable {
    /// Vision's joint names, in MediaPipe's order (the wrist, then each finger from its base).
    public enum JointName: String, Sendable, CaseIterable, Codable {
        case wrist
        case thumbCMC, thumbMP, thumbIP, thumbTip
        case indexMCP, indexPIP, indexDIP, indexTip
        case middleMCP, middlePIP, middleDIP, middleTip
        case ringMCP, ringPIP, ringDIP, ringTip
        case littleMCP, littlePIP, littleDIP, littleTip
    }

    /// Vision's joint groups.
    public enum JointsGroupName: String, Sendable, CaseIterable, Codable {
        case thumb, indexFinger, middleFinger, ringFinger, littleFinger, all

        public var joints: [JointName] {
            let all = JointName.allCases
            switch self {
            case .thumb: return Array(all[1...4])
            case .indexFinger: return Array(all[5...8])
            case .middleFinger: return Array(all[9...12])
            case .ringFinger: return Array(all[13...16])
            case .littleFinger: return Array(all[17...20])
            case .all: return all
            }
        }
    }

    /// Which hand, as Vision's `chirality`.
    public enum Chirality: String, Sendable, Codable {
        case left, right, unknown
    }

    public let chirality: Chirality
    /// How likely a hand is there (the landmark model's presence score); every joint carries it.
    public let confidence: Float
    public let imageSize: Size
    /// The joints in `JointName` order, in the region's pixels.
    public let pixelLocations: [PixelPoint]

    init(joints: [PixelPoint], chirality: Chirality, confidence: Float, imageSize: Size) {
        (pixelLocations, self.chirality, self.confidence, self.imageSize) = (joints, chirality, confidence, imageSize)
    }

    /// The joints of `group`, by name.
    public func recognizedPoints(_ group: JointsGroupName = .all) -> [JointName: HumanBodyPoseObservation.RecognizedPoint] {
        Dictionary(uniqueKeysWithValues: group.joints.map { ($0, recognizedPoint($0)) })
    }

    /// One joint: normalized (lower-left origin) and in pixels, with the hand's confidence.
    public func recognizedPoint(_ joint: JointName) -> HumanBodyPoseObservation.RecognizedPoint {
        let p = pixelLocations[JointName.allCases.firstIndex(of: joint)!]
        return HumanBodyPoseObservation.RecognizedPoint(
            location: NormalizedPoint(x: p.x / imageSize.width, y: 1 - p.y / imageSize.height), pixelLocation: p,
            confidence: confidence)
    }
}
