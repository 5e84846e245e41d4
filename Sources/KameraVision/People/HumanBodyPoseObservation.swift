import Foundation
import KameraCore

/// A person's body pose, like Vision's `HumanBodyPoseObservation`: Vision's 19 joints (the
/// neck and the root derived from the shoulders and hips, as Vision does) with a confidence
/// each, plus the model's own 33 landmarks.
public struct HumanBodyPoseObservation: Sendable {
    /// Vision's joint names; left and right are the person's own.
    public enum JointName: String, Sendable, CaseIterable, Codable {
        case nose, leftEye, rightEye, leftEar, rightEar, neck
        case leftShoulder, rightShoulder, leftElbow, rightElbow, leftWrist, rightWrist
        case root, leftHip, rightHip, leftKnee, rightKnee, leftAnkle, rightAnkle
    }

    /// Vision's joint groups.
    public enum JointsGroupName: String, Sendable, CaseIterable, Codable {
        case face, torso, leftArm, rightArm, leftLeg, rightLeg, all

        /// The joints in the group.
        public var joints: [JointName] {
            switch self {
            case .face: [.nose, .leftEye, .rightEye, .leftEar, .rightEar]
            case .torso: [.neck, .leftShoulder, .rightShoulder, .root, .leftHip, .rightHip]
            case .leftArm: [.leftShoulder, .leftElbow, .leftWrist]
            case .rightArm: [.rightShoulder, .rightElbow, .rightWrist]
            case .leftLeg: [.leftHip, .leftKnee, .leftAnkle]
            case .rightLeg: [.rightHip, .rightKnee, .rightAnkle]
            case .all: JointName.allCases
            }
        }
    }

    /// One point of the pose.
    public struct RecognizedPoint: Sendable, Equatable {
        /// Normalized, lower-left origin (Vision's convention), relative to the analysed region.
        public var location: NormalizedPoint
        /// In the region's pixels, top-left origin.
        public var pixelLocation: PixelPoint
        /// How likely the point is visible (0…1).
        public var confidence: Float
    }

    /// How likely this is a person, from the detector and the landmark model.
    public let confidence: Float
    /// The box round the landmarks the model is sure of (confidence of at least one half),
    /// within the image; normalized, lower-left origin.
    public let boundingBox: NormalizedRect
    /// The size of the image (or region) the points are in.
    public let imageSize: Size
    /// BlazePose's 33 landmarks in its order (nose, eyes, ears, mouth, shoulders, elbows,
    /// wrists, hands, hips, knees, ankles, heels, feet), for what Vision's joints leave out.
    public let landmarks: [RecognizedPoint]

    init(landmarks: [BlazePoseLandmarker.Landmark], confidence: Float, imageSize: Size) {
        self.landmarks = landmarks.map { Self.point($0.position, confidence: $0.visibility, in: imageSize) }
        self.confidence = confidence
        self.imageSize = imageSize
        let sure = landmarks.filter { $0.visibility >= 0.5 }
        let points = (sure.isEmpty ? landmarks : sure).map(\.position)
        let image = PixelRect(x: 0, y: 0, width: imageSize.width, height: imageSize.height)
        let bounds = PixelRect(enclosing: points)
        boundingBox = (bounds.intersection(image) ?? bounds).normalized(in: imageSize)
    }

    /// `boundingBox` in the image's (or region's) pixels, top-left origin.
    public var pixelBoundingBox: PixelRect {
        PixelRect(
            x: boundingBox.x * imageSize.width, y: (1 - boundingBox.maxY) * imageSize.height, width: boundingBox.width * imageSize.width,
            height: boundingBox.height * imageSize.height)
    }

    /// The joints of `group` that were found, by name.
    public func recognizedPoints(_ group: JointsGroupName = .all) -> [JointName: RecognizedPoint] {
        Dictionary(uniqueKeysWithValues: group.joints.map { ($0, point($0)) })
    }

    /// One joint.
    public func recognizedPoint(_ joint: JointName) -> RecognizedPoint { point(joint) }

    /// Joints a Vision name has, in BlazePose's numbering (the neck and root are midpoints).
    static let landmarkIndex: [JointName: Int] = [
        .nose: 0, .leftEye: 2, .rightEye: 5, .leftEar: 7, .rightEar: 8, .leftShoulder: 11, .rightShoulder: 12,
        .leftElbow: 13, .rightElbow: 14, .leftWrist: 15, .rightWrist: 16, .leftHip: 23, .rightHip: 24, .leftKnee: 25,
        .rightKnee: 26, .leftAnkle: 27, .rightAnkle: 28,
    ]

    private func point(_ joint: JointName) -> RecognizedPoint {
        switch joint {
        case .neck: midpoint(11, 12)
        case .root: midpoint(23, 24)
        default: landmarks[Self.landmarkIndex[joint]!]
        }
    }

    private func midpoint(_ a: Int, _ b: Int) -> RecognizedPoint {
        let (p, q) = (landmarks[a].pixelLocation, landmarks[b].pixelLocation)
        return Self.point(
            PixelPoint(x: (p.x + q.x) / 2, y: (p.y + q.y) / 2), confidence: min(landmarks[a].confidence, landmarks[b].confidence),
            in: imageSize)
    }

    private static func point(_ position: PixelPoint, confidence: Float, in size: Size) -> RecognizedPoint {
        RecognizedPoint(
            location: NormalizedPoint(x: position.x / size.width, y: 1 - position.y / size.height), pixelLocation: position,
            confidence: confidence)
    }
}
