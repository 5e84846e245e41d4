import KameraCore
import KameraVision

/// Draws faces as the seeds do: a red-bordered layer over each face, turned in 3-D by the
/// face's roll and yaw (`FaceLayerTransform`), and the landmark regions as green polylines.
public struct FaceOverlay: Sendable {
    public var borderColor = Color.red
    public var landmarkColor = Color.green
    /// Line width in pixels; nil scales it with the image.
    public var lineWidth: Double?

    public init() {}

    public func draw(_ faces: [FaceObservation], on canvas: inout Canvas) {
        let buffer = canvas.buffer
        let width = lineWidth ?? max(2, Double(max(buffer.width, buffer.height)) / 400)
        for face in faces {
            let sx = Double(buffer.width) / face.imageSize.width, sy = Double(buffer.height) / face.imageSize.height
            let box = face.pixelBox
            let scaled = PixelRect(x: box.x * sx, y: box.y * sy, width: box.width * sx, height: box.height * sy)
            let layer = FaceLayerTransform(roll: face.roll.inRadians, yaw: face.yaw.inRadians)
            canvas.stroke(layer.corners(of: scaled), closed: true, lineWidth: width, color: borderColor)
            guard let landmarks = face.landmarks else { continue }
            for name in FaceLandmarks.RegionName.allCases {
                let region = landmarks.region(named: name)
                let points = region.pointsInImageCoordinates(
                    Size(width: Double(buffer.width), height: Double(buffer.height)),
                    origin: .upperLeft)
                if region.pointsClassification == .disconnected {
                    let r = width * 1.5
                    canvas.fill(
                        ellipseIn: PixelRect(x: points[0].x - r, y: points[0].y - r, width: 2 * r, height: 2 * r),
                        color: landmarkColor)
                } else {
                    canvas.stroke(
                        points, closed: region.pointsClassification == .closedPath, lineWidth: max(1, width / 2), color: landmarkColor)
                }
            }
        }
    }
}
