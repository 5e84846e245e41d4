import KameraCore
import KameraVision

/// Draws rectangles and documents: the outline, and a dot on the top-left corner so the
/// reading order shows.
public struct RectangleOverlay: Sendable {
    public var color = Color(red: 255, green: 0, blue: 200)

    public init() {}

    public func draw(_ rectangles: [RectangleObservation], on canvas: inout Canvas) {
        let width = max(2, Double(max(canvas.buffer.width, canvas.buffer.height)) / 400)
        for rectangle in rectangles {
            canvas.stroke(rectangle.pixelCorners.corners, closed: true, lineWidth: width, color: color)
            let corner = rectangle.pixelCorners.topLeft
            canvas.fill(
                ellipseIn: PixelRect(x: corner.x - 2 * width, y: corner.y - 2 * width, width: 4 * width, height: 4 * width),
                color: color)
        }
    }
}
