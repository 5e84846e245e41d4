import Foundation
import Kamera
import KameraTestTiers
import Testing

@Suite("Face layers and scan overlays", .tier(.unit))
struct FaceOverlayTests {
    @Test("The 3-D layer: a rectangle without roll or yaw, turned by roll, narrowed and tapered by yaw")
    func layerGeometry() {
        let box = PixelRect(x: 100, y: 100, width: 200, height: 200)
        let flat = FaceLayerTransform(roll: 0, yaw: 0).corners(of: box)
        #expect(flat.map { [$0.x, $0.y] } == [[100, 100], [300, 100], [300, 300], [100, 300]])
        // Roll 90° counter-clockwise: the top-left corner goes to the bottom-left.
        let rolled = FaceLayerTransform(roll: .pi / 2, yaw: 0).corners(of: box)
        #expect(abs(rolled[0].x - 100) < 1e-9 && abs(rolled[0].y - 300) < 1e-9)
        // Yaw: narrower, and with m34 the edge that swings toward the viewer grows.
        let turned = FaceLayerTransform(roll: 0, yaw: 0.6).corners(of: box)
        let width = max(turned[1].x, turned[2].x) - min(turned[0].x, turned[3].x)
        #expect(width < 200 * cos(0.6) + 10 && width > 200 * cos(0.6) - 10)
        let leftEdge = turned[3].y - turned[0].y, rightEdge = turned[2].y - turned[1].y
        #expect(abs(leftEdge - rightEdge) > 5, "perspective makes the two edges differ: \(leftEdge) vs \(rightEdge)")
    }

    @Test("Faces and codes at and beyond the frame edges draw clipped, without crashing")
    func edges() throws {
        let size = Size(width: 160, height: 120)
        var canvas = Canvas(PixelBuffer(width: 160, height: 120, format: .rgb8, filledWith: [0, 0, 0]))
        let faces = [
            PixelRect(x: -40, y: -30, width: 100, height: 100), PixelRect(x: 120, y: 80, width: 90, height: 90),
            PixelRect(x: -500, y: -500, width: 50, height: 50),
        ].map {
            FaceObservation(
                boundingBox: $0.normalized(in: size), imageSize: size, confidence: 1, roll: .radians(0.3), yaw: .radians(-0.5),
                pitch: .radians(0),
                keypoints: [])
        }
        FaceOverlay().draw(faces, on: &canvas)
        var red = 0
        for y in 0..<120 { for x in 0..<160 where canvas.buffer.pixel(x: x, y: y)[0] > 128 { red += 1 } }
        #expect(red > 50, "\(red) red pixels")
        // Along the left and top edges the layer of the first face is drawn right up to the border.
        #expect(
            (0..<120).contains { canvas.buffer.pixel(x: 0, y: $0)[0] > 100 }
                || (0..<160).contains { canvas.buffer.pixel(x: $0, y: 0)[0] > 100 })
    }
}
