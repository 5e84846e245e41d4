import Foundation
import Kamera

/// A ``FaceObservation`` as JSON (`kamera detect --faces`, `kamera scan`), keys in declaration
/// order; angles in degrees, landmarks normalized to the face box as Vision has them.
package struct FaceRecord: Codable, Sendable, Equatable {
    /// Each landmark region's points as `[x, y]`, regions in Vision's order.
    package struct Landmarks: Codable, Sendable, Equatable {
        package var faceContour, leftEye, rightEye, leftEyebrow, rightEyebrow, nose, noseCrest, medianLine: [[Double]]
        package var outerLips, innerLips, leftPupil, rightPupil: [[Double]]

        package init(_ landmarks: FaceLandmarks) {
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

    package var boundingBox: RecordBox
    package var pixelBox: RecordBox
    package var confidence: Double
    package var roll: Double
    package var yaw: Double
    package var pitch: Double
    package var landmarks: Landmarks?

    package init(_ observation: FaceObservation) {
        boundingBox = RecordBox(observation.boundingBox)
        pixelBox = RecordBox(observation.pixelBox)
        confidence = RecordRounding.score(Double(observation.confidence))
        roll = RecordRounding.degrees(observation.roll)
        yaw = RecordRounding.degrees(observation.yaw)
        pitch = RecordRounding.degrees(observation.pitch)
        landmarks = observation.landmarks.map(Landmarks.init)
    }
}
