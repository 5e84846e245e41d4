import Foundation
import KameraCore

/// A palm found by MediaPipe's palm detector, in image pixels: the box, the score and seven
/// keypoints (the wrist's centre, the bases of the index, middle, ring and little fingers, and
/// two on the thumb).
struct HandDetection: KeypointDetection {
    var box: PixelRect
    var keypoints: [PixelPoint]
    var score: Float

    static let wrist = 0, middleFingerBase = 2

    /// The region the hand landmark model looks at (MediaPipe's palm-to-hand ROI): the palm
    /// box turned so the fingers point up, moved half its height towards the fingers and
    /// enlarged 2.6 times to a square.
    var handRegion: RotatedRect {
        let angle = PersonDetection.uprightAngle(from: keypoints[Self.wrist], to: keypoints[Self.middleFingerBase])
        let shift = -0.5 * box.height
        let center = PixelPoint(x: box.center.x - shift * sin(angle), y: box.center.y + shift * cos(angle))
        let side = 2.6 * max(box.width, box.height)
        return RotatedRect(center: center, width: side, height: side, angle: angle)
    }
}
