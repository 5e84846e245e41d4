import KameraCore

/// The pixels of a frame a person mask covers, grown by a margin: what people redaction
/// paints over besides the boxes round their body poses (the mask is the selfie model's: good
/// on people near the camera, thin on small, distant ones, which the pose boxes hold). The mask may be smaller than the frame (the model's size) and made on the
/// frame turned upright (`rotation`), so each frame pixel is mapped into it.
struct PersonCoverage: Sendable {
    private let values: [Float]
    private let maskWidth: Int, maskHeight: Int
    private let orientation: QuarterTurn
    private let margin: Double
    /// The covered pixels' bounds, in the frame's pixels, margin included.
    let bounds: PixelRect

    /// Nil when the mask shows nobody.
    /// - Parameters:
    ///   - rotation: clockwise degrees that turn the frame upright (the mask is of the upright frame).
    init?(mask: PersonSegmentationObservation, frameWidth: Int, frameHeight: Int, rotation: Int) {
        guard let inMask = mask.personBounds, mask.width > 0, mask.height > 0 else { return nil }
        (values, maskWidth, maskHeight) = (mask.values, mask.width, mask.height)
        orientation = QuarterTurn(degrees: rotation, width: frameWidth, height: frameHeight)
        // A percent of the frame: the mask's soft, low-resolution edge misses about that much.
        margin = max(2, 0.01 * Double(min(frameWidth, frameHeight)))
        let upright = orientation.uprightSize
        let (sx, sy) = (upright.width / Double(maskWidth), upright.height / Double(maskHeight))
        let box = PixelRect(x: inMask.x * sx, y: inMask.y * sy, width: inMask.width * sx, height: inMask.height * sy)
        bounds = PixelRect(enclosing: Quad(box).corners.map(orientation.toFrame)).expanded(dx: margin, dy: margin)
    }

    /// Whether the frame pixel (x, y) is a person's or within the margin of one.
    func contains(_ x: Int, _ y: Int) -> Bool {
        let centre = PixelPoint(x: Double(x) + 0.5, y: Double(y) + 0.5)
        for offset in [(0.0, 0.0), (margin, 0), (-margin, 0), (0, margin), (0, -margin)] {
            if value(at: orientation.toUpright(PixelPoint(x: centre.x + offset.0, y: centre.y + offset.1))) >= 0.5 { return true }
        }
        return false
    }

    /// The mask's value under an upright-frame point (nearest mask pixel; outside: none).
    private func value(at point: PixelPoint) -> Float {
        let upright = orientation.uprightSize
        let mx = point.x / upright.width * Double(maskWidth), my = point.y / upright.height * Double(maskHeight)
        guard mx >= 0, my >= 0, mx < Double(maskWidth), my < Double(maskHeight) else { return 0 }
        let value = values[Int(my) * maskWidth + Int(mx)]
        return value.isNaN ? 0 : value
    }
}
