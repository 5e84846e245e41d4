import KameraCore

/// A raw face detection in image pixels (top-left origin): the box, the detector's six
/// keypoints — subject's right eye, left eye, nose tip, mouth centre, right ear tragion,
/// left ear tragion — and the score.
struct FaceDetection: Sendable {
    var box: PixelRect
    var keypoints: [PixelPoint]
    var score: Float

    static let rightEye = 0, leftEye = 1, noseTip = 2, mouth = 3, rightEar = 4, leftEar = 5
}
