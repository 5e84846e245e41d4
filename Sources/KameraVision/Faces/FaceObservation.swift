import Foundation
import KameraCore

/// A face found in an image, like Vision's `FaceObservation`: where it is (normalized,
/// lower-left origin, and in pixels), how sure the detector is, how the head is turned and,
/// from `DetectFaceLandmarksRequest`, its landmarks.
///
/// Angles are `Measurement<UnitAngle>`, as in Vision (`face.roll.converted(to: .degrees)`;
/// `inDegrees`/`inRadians` for short). `roll`: rotation in the image plane, positive
/// counter-clockwise as seen (the subject's left eye higher than the right). `yaw`: positive
/// when the face turns toward the image's right (the subject's left). `pitch`: positive when
/// the face looks up.
public struct FaceObservation: Sendable {
    /// The face box normalized to the image (0…1, origin lower-left).
    public var boundingBox: NormalizedRect
    /// Size of the image the face was found in.
    public var imageSize: Size
    /// Detector score, 0…1.
    public var confidence: Float
    /// Rotation about the axis out of the image.
    public var roll: Measurement<UnitAngle>
    /// Rotation about the vertical axis.
    public var yaw: Measurement<UnitAngle>
    /// Rotation about the horizontal axis.
    public var pitch: Measurement<UnitAngle>
    /// The detector's six keypoints in pixels (top-left origin): right eye, left eye, nose
    /// tip, mouth centre, right ear tragion, left ear tragion (the subject's right and left).
    public var keypoints: [PixelPoint]
    /// Landmark regions and the full mesh, when landmarks were requested.
    public var landmarks: FaceLandmarks?

    public init(
        boundingBox: NormalizedRect, imageSize: Size, confidence: Float, roll: Measurement<UnitAngle>,
        yaw: Measurement<UnitAngle>, pitch: Measurement<UnitAngle>, keypoints: [PixelPoint], landmarks: FaceLandmarks? = nil
    ) {
        self.boundingBox = boundingBox
        self.imageSize = imageSize
        self.confidence = confidence
        self.roll = roll
        self.yaw = yaw
        self.pitch = pitch
        self.keypoints = keypoints
        self.landmarks = landmarks
    }

    /// The face box in pixels (top-left origin).
    public var pixelBox: PixelRect { boundingBox.toImageCoordinates(imageSize) }
}
