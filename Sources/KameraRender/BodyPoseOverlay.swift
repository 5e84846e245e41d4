import KameraCore
import KameraVision

/// Draws body poses as skeletons: the limbs and torso as lines between Vision's joints, and a
/// dot on each joint; joints the model is unsure of (confidence below one half) are left out.
public struct BodyPoseOverlay: Sendable {
    public var color = Color(red: 255, green: 170, blue: 0)
    public var minimumConfidence: Float = 0.5

    /// The skeleton's bones, joint to joint.
    static let bones: [(HumanBodyPoseObservation.JointName, HumanBodyPoseObservation.JointName)] = [
        (.leftEar, .leftEye), (.leftEye, .nose), (.nose, .rightEye), (.rightEye, .rightEar), (.nose, .neck),
        (.leftShoulder, .rightShoulder), (.leftShoulder, .leftElbow), (.leftElbow, .leftWrist), (.rightShoulder, .rightElbow),
        (.rightElbow, .rightWrist), (.neck, .root), (.leftHip, .rightHip), (.leftHip, .leftKnee), (.leftKnee, .leftAnkle),
        (.rightHip, .rightKnee), (.rightKnee, .rightAnkle),
    ]

    public init() {}

    public func draw(_ poses: [HumanBodyPoseObservation], on canvas: inout Canvas) {
        let width = max(2, Double(max(canvas.buffer.width, canvas.buffer.height)) / 300)
        for pose in poses {
            let joints = pose.recognizedPoints().filter { $0.value.confidence >= minimumConfidence }
            for (from, to) in Self.bones {
                guard let a = joints[from], let b = joints[to] else { continue }
                canvas.stroke([a.pixelLocation, b.pixelLocation], closed: false, lineWidth: width, color: color)
            }
            for point in joints.values {
                let p = point.pixelLocation
                canvas.fill(
                    ellipseIn: PixelRect(x: p.x - 1.5 * width, y: p.y - 1.5 * width, width: 3 * width, height: 3 * width), color: color)
            }
        }
    }
}
