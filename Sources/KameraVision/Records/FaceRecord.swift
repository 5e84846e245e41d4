import Foundation
import KameraCore

/// A ``FaceObservation`` as JSON (`kamera detect --faces`, `kamera scan`), keys in declaration
/// order; angles in degrees, landmarks normalized to the face box as Vision has them.
public struct FaceRecord: Codable, Sendable, Equatable {
    /// Each landmark region's points as `[x, y]`, regions in Vision's order.
    public struct Landmarks: Codable, Sendable, Equatable {
        public var faceContour, leftEye, rightEye, leftEyebrow, rightEyebrow, nose, noseCrest, medianLine: [[Double]]
        public var outerLips, innerLips, leftPupil, rightPupil: [[Double]]

        public init(_ landmarks: FaceLandmarks) {
            func points(_ region: FaceLandmarks.Region) -> [[Double]] {
                region.points.map { [RecordRounding.normalized($0.x), RecordRounding.normalized($0.y)] }
            }
            (faceContour, leftEye, rightEye, leftEyebrow) = (
                points(landmarks.faceContour), points(landmarks.leftEye),
                points(landmarks.rightEye), points(landmarks.leftEyebrow)
            )
            (rightEyebrow, nose, noseCrest, medianLine) = (
                points(landmarks.rightEyebrow), points(landmarks.nose),
                points(landmarks.noseCrest), points(landmarks.medianLine)
            )
            (outerLips, innerLips, leftPupil, rightPupil) = (
                points(landmarks.outerLips), points(landmarks.innerLips),
                points(landmarks.leftPupil), points(landmarks.rightPupil)
            )
        }
    }

    public var boundingBox: RecordBox
    public var pixelBox: RecordBox
    public var confidence: Double
    public var roll: Double
    public var yaw: Double
    public var pitch: Double
    public var landmarks: Landmarks?

    public init(_ observation: FaceObservation) {
        boundingBox = RecordBox(observation.boundingBox)
        pixelBox = RecordBox(observation.pixelBox)
        confidence = RecordRounding.score(Double(observation.confidence))
        roll = RecordRounding.degrees(observation.roll)
        yaw = RecordRounding.degrees(observation.yaw)
        pitch = RecordRounding.degrees(observation.pitch)
        landmarks = observation.landmarks.map(Landmarks.init)
    }
}
