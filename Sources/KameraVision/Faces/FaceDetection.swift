import KameraCore

/// A raw face detection in image pixels (top-left origin): the box, the detector's six
/// keypoints — subject's right eye, left eye, nose tip, mouth centre, right ear tragion,
/// left ear tragion — and the score.
struct FaceDetection: KeypointDetection {
    var box: PixelRect
    var keypoints: [PixelPoint]
    var score: Float

    static let rightEye = 0, leftEye = 1, noseTip = 2, mouth = 3, rightEar = 4, leftEar = 5

    /// A face given only as a box (a caller's own observation): keypoints where they sit on an
    /// upright frontal face, so the later stages have an eye line to work from.
    init(box: PixelRect, keypoints: [PixelPoint], score: Float) {
        self.box = box
        self.score = score
        if keypoints.count >= 6 {
            self.keypoints = keypoints
        } else {
            let layout: [(Double, Double)] = [(0.33, 0.38), (0.67, 0.38), (0.5, 0.58), (0.5, 0.78), (0.08, 0.45), (0.92, 0.45)]
            self.keypoints = layout.map { PixelPoint(x: box.x + $0.0 * box.width, y: box.y + $0.1 * box.height) }
        }
    }
}
