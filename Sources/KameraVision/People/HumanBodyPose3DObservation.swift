import Foundation
import KameraCore

/// A person's body pose in metres, like Vision's `HumanBodyPose3DObservation`: Vision's 17
/// joints about the root (the middle of the hips), from BlazePose's world landmarks, and the
/// body's height.
public struct HumanBodyPose3DObservation: Sendable {
    /// Vision's 3-D joint names; left and right are the person's own.
    public enum JointName: String, Sendable, CaseIterable, Codable {
        case topHead, centerHead, centerShoulder, leftShoulder, rightShoulder, leftElbow, rightElbow, leftWrist, rightWrist
        case spine, root, leftHip, rightHip, leftKnee, rightKnee, leftAnkle, rightAnkle
    }

    /// Vision's 3-D joint groups.
    public enum JointsGroupName: String, Sendable, CaseIterable, Codable {
        case head, torso, leftArm, rightArm, leftLeg, rightLeg, all

        /// The joints in the group.
        public var joints: [JointName] {
            switch self {
            case .head: [.topHead, .centerHead]
            case .torso: [.centerShoulder, .leftShoulder, .rightShoulder, .spine, .root, .leftHip, .rightHip]
            case .leftArm: [.leftShoulder, .leftElbow, .leftWrist]
            case .rightArm: [.rightShoulder, .rightElbow, .rightWrist]
            case .leftLeg: [.leftHip, .leftKnee, .leftAnkle]
            case .rightLeg: [.rightHip, .rightKnee, .rightAnkle]
            case .all: JointName.allCases
            }
        }
    }

    /// How `bodyHeight` was found (Vision's `HeightEstimation`).
    public enum HeightEstimation: String, Sendable, Codable {
        /// From a body of standard proportions: the model's metric landmarks, no depth sensor.
        case reference
        /// Measured with depth (LiDAR on Apple's devices; never here).
        case measured
    }

    /// One joint: where it is in metres about the root (x to the image's right, y up, z toward
    /// the camera), and where it is in the image.
    public struct RecognizedPoint: Sendable, Equatable {
        public var position: SIMD3<Double>
        /// Normalized, lower-left origin, relative to the analysed region.
        public var location: NormalizedPoint
    }

    /// How likely this is a person, from the detector and the landmark model.
    public let confidence: Float
    /// The height of the body from its feet to the top of its head, metres, along its limbs
    /// (so it holds whether the person stands, sits or bends).
    public let bodyHeight: Double
    public let heightEstimation = HeightEstimation.reference
    /// The image's (or region's) size.
    public let imageSize: Size
    private let joints: [JointName: RecognizedPoint]

    /// - Parameters:
    ///   - world: BlazePose's 33 world landmarks (metres, y down, z away from the camera).
    ///   - image: the same landmarks in the image, pixels.
    init(world: [SIMD3<Double>], image: [PixelPoint], confidence: Float, imageSize: Size) {
        // Vision's axes: y up, z toward the camera.
        let w = world.map { SIMD3($0.x, -$0.y, -$0.z) }
        func mid(_ a: Int, _ b: Int) -> (SIMD3<Double>, PixelPoint) {
            ((w[a] + w[b]) / 2, PixelPoint(x: (image[a].x + image[b].x) / 2, y: (image[a].y + image[b].y) / 2))
        }
        let root = mid(23, 24), shoulders = mid(11, 12), head = mid(7, 8)
        // The top of the head: beyond the ears' middle, away from the shoulders, by half the
        // head's width (the ears are about a head's width apart).
        let up = head.0 - shoulders.0, upLength = max((up * up).sum().squareRoot(), 1e-6)
        let headRadius = ((w[7] - w[8]) * (w[7] - w[8])).sum().squareRoot() / 2
        let top = head.0 + up / upLength * headRadius
        let imageUp = PixelPoint(x: head.1.x - shoulders.1.x, y: head.1.y - shoulders.1.y)
        let imageUpLength = max(hypot(imageUp.x, imageUp.y), 1e-6)
        let imageHeadRadius = image[7].distance(to: image[8]) / 2
        let topImage = PixelPoint(
            x: head.1.x + imageUp.x / imageUpLength * imageHeadRadius, y: head.1.y + imageUp.y / imageUpLength * imageHeadRadius)
        var named: [JointName: (SIMD3<Double>, PixelPoint)] = [
            .topHead: (top, topImage), .centerHead: head, .centerShoulder: shoulders, .root: root,
            .spine: ((root.0 + shoulders.0) / 2, PixelPoint(x: (root.1.x + shoulders.1.x) / 2, y: (root.1.y + shoulders.1.y) / 2)),
        ]
        let indices: [(JointName, Int)] = [
            (.leftShoulder, 11), (.rightShoulder, 12), (.leftElbow, 13), (.rightElbow, 14), (.leftWrist, 15), (.rightWrist, 16),
            (.leftHip, 23), (.rightHip, 24), (.leftKnee, 25), (.rightKnee, 26), (.leftAnkle, 27), (.rightAnkle, 28),
        ]
        for (name, index) in indices { named[name] = (w[index], image[index]) }
        joints = named.mapValues { position, pixel in
            RecognizedPoint(
                position: position - root.0, location: NormalizedPoint(x: pixel.x / imageSize.width, y: 1 - pixel.y / imageSize.height))
        }
        // Along the body: the longer leg (heel to hip), the hips to the shoulders, the
        // shoulders to the ears' middle, and on to the top of the head.
        func length(_ points: [SIMD3<Double>]) -> Double {
            zip(points, points.dropFirst()).reduce(0) { total, pair in total + ((pair.0 - pair.1) * (pair.0 - pair.1)).sum().squareRoot() }
        }
        let leg = max(length([w[29], w[27], w[25], w[23]]), length([w[30], w[28], w[26], w[24]]))
        bodyHeight = leg + length([root.0, shoulders.0, head.0, top])
        self.confidence = confidence
        self.imageSize = imageSize
    }

    /// The joints of `group`, by name.
    public func recognizedPoints(_ group: JointsGroupName = .all) -> [JointName: RecognizedPoint] {
        joints.filter { group.joints.contains($0.key) }
    }

    /// One joint.
    public func recognizedPoint(_ joint: JointName) -> RecognizedPoint { joints[joint]! }

    /// Where a joint is in the image (Vision's `pointInImage(_:)`): normalized, lower-left origin.
    public func pointInImage(_ joint: JointName) -> NormalizedPoint { recognizedPoint(joint).location }
}
