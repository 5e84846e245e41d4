import KameraCore
import KameraVision

/// Draws one scanned frame as the seeds' live view does: each face as its 3-D layer with its
/// ID, landmarks when present, each code with its yellow oval, green corner polygon and
/// message, each followed rectangle outlined, each body's skeleton and each hand's joints with
/// their IDs. Everything is clipped at the frame edges.
public struct ScanOverlay: Sendable {
    public var faces = FaceOverlay()
    public var bodies = BodyPoseOverlay()
    public var hands = HandPoseOverlay()
    public var barcodes = BarcodeOverlay()
    public var rectangles = RectangleOverlay()

    public init() {}

    public func draw(_ scan: FrameScan, on canvas: inout Canvas, font: FontFace?) {
        // Rectangles first: a document under a code or face should not cover them.
        rectangles.draw(scan.rectangles.map(\.observation), on: &canvas)
        bodies.draw(scan.bodies.map(\.observation), on: &canvas)
        hands.draw(scan.hands.map(\.observation), on: &canvas)
        faces.draw(scan.faces.map(\.observation), on: &canvas)
        var layout = LabelLayout(canvasSize: canvas.buffer.size)
        if let font {
            let size = max(12, min(32, Double(canvas.buffer.height) / 36))
            // A body's ID above its head (the box's top), a hand's beside its wrist.
            let labels =
                scan.bodies.map { body -> (String, PixelPoint, Color) in
                    let box = body.observation.pixelBoundingBox
                    return ("P\(body.bodyID)", PixelPoint(x: box.center.x, y: box.minY), bodies.color)
                }
                + scan.hands.compactMap { hand -> (String, PixelPoint, Color)? in
                    guard let wrist = hand.observation.pixelLocations.first else { return nil }
                    return ("H\(hand.handID)", wrist, hand.observation.chirality == .left ? hands.leftColor : hands.rightColor)
                }
            for (text, anchor, color) in labels {
                let fitted = font.fitting(text, size: size, maximumWidth: Double(canvas.buffer.width))
                let width = Double(fitted.bitmap.width), height = Double(fitted.bitmap.height)
                let spot = layout.place(
                    width: width, height: height,
                    preferred: [
                        PixelPoint(x: anchor.x - width / 2, y: anchor.y - height - 4), PixelPoint(x: anchor.x - width / 2, y: anchor.y + 4),
                    ])
                canvas.draw(text: fitted.text, at: PixelPoint(x: spot.x, y: spot.y), size: fitted.size, color: color, font: font)
            }
            for face in scan.faces {
                let box = face.observation.pixelBox
                let corners = FaceLayerTransform(roll: face.observation.roll.inRadians, yaw: face.observation.yaw.inRadians).corners(
                    of: box)
                let top = corners.min { $0.y < $1.y }!
                let fitted = font.fitting("#\(face.faceID)", size: size, maximumWidth: Double(canvas.buffer.width))
                let width = Double(fitted.bitmap.width), height = Double(fitted.bitmap.height)
                // Above the layer's top corner, else below the face; always on the canvas.
                let spot = layout.place(
                    width: width, height: height,
                    preferred: [
                        PixelPoint(x: top.x - width / 2, y: top.y - height - 4), PixelPoint(x: box.center.x - width / 2, y: box.maxY + 4),
                    ])
                canvas.draw(
                    text: fitted.text, at: PixelPoint(x: spot.x, y: spot.y), size: fitted.size, color: faces.borderColor, font: font)
            }
        }
        barcodes.draw(scan.barcodes.map(\.observation), on: &canvas, font: font, layout: &layout)
    }
}
