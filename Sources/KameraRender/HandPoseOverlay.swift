import KameraCore
import KameraVision

/// Draws hands: each finger as a line from the wrist through its joints, and a dot on each
/// joint; left hands and right hands in different colours.
public struct HandPoseOverlay: Sendable {
    public var leftColor = Color(red: 80, green: 255, blue: 120)
    public var rightColor = Color(red: 255, green: 80, blue: 200)

    public init() {}

    public func draw(_ hands: [HumanHandPoseObservation], on canvas: inout Canvas) {
        let width = max(1.5, Double(max(canvas.buffer.width, canvas.buffer.height)) / 500)
        for hand in hands {
            let color = hand.chirality == .left ? leftColor : rightColor
            let joints = hand.pixelLocations
            guard joints.count == 21 else { continue }
            for finger in 0..<5 {
                canvas.stroke([joints[0]] + joints[(1 + 4 * finger)...(4 + 4 * finger)], closed: false, lineWidth: width, color: color)
            }
            for p in joints {
                canvas.fill(ellipseIn: PixelRect(x: p.x - width, y: p.y - width, width: 2 * width, height: 2 * width), color: color)
            }
        }
    }
}
