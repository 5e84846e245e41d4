import KameraCore
import KameraVision

/// Draws one scanned frame as the seeds' live view does: each face as its 3-D layer with its
/// ID, landmarks when present, each code with its yellow oval, green corner polygon and
/// message. Everything is clipped at the frame edges.
public struct ScanOverlay: Sendable {
    public var faces = FaceOverlay()
    public var barcodes = BarcodeOverlay()

    public init() {}

    public func draw(_ scan: FrameScan, on canvas: inout Canvas, font: FontFace?) {
        faces.draw(scan.faces.map(\.observation), on: &canvas)
        if let font {
            let size = max(12, min(32, Double(canvas.buffer.height) / 36))
            for face in scan.faces {
                let box = face.observation.pixelBox
                let corners = FaceLayerTransform(roll: face.observation.roll ?? 0, yaw: face.observation.yaw ?? 0).corners(of: box)
                let top = corners.min { $0.y < $1.y }!
                canvas.draw(text: "#\(face.faceID)", at: PixelPoint(x: top.x, y: max(size, top.y - 4)), size: size,
                            color: faces.borderColor, font: font)
            }
        }
        barcodes.draw(scan.barcodes.map(\.observation), on: &canvas, font: font)
    }
}
