import Foundation
import KameraCore
import KameraVision

/// Builds synthetic test scenes: generated codes warped into real photos with known
/// placement, then blurred, noised or flattened like a camera would.
public struct SceneComposer: Sendable {
    /// The scene so far (rgb8).
    public private(set) var canvas: PixelBuffer
    /// Ground truth of every code placed.
    public private(set) var placed: [PlacedCode] = []

    /// A scene over `background`, scaled and cropped to fill `width` × `height`.
    public init(background: PixelBuffer, width: Int, height: Int) {
        let scale = max(Double(width) / Double(background.width), Double(height) / Double(background.height))
        let scaled = background.converted(to: .rgb8).resized(
            width: max(width, Int((Double(background.width) * scale).rounded(.up))),
            height: max(height, Int((Double(background.height) * scale).rounded(.up))))
        let x = (scaled.width - width) / 2, y = (scaled.height - height) / 2
        canvas = scaled.cropped(to: PixelRect(x: Double(x), y: Double(y), width: Double(width), height: Double(height)))
    }

    /// Draws the symbol for `payload` at `pose` and records where it went.
    @discardableResult
    public mutating func place(
        _ symbology: BarcodeSymbology, payload: BarcodeGenerator.Payload, pose: CodePose,
        moduleSize: Int = 4
    ) throws -> PlacedCode {
        let rendering = try BarcodeGenerator(symbology: symbology, moduleSize: moduleSize).render(payload)
        var image = rendering.image
        if pose.mirrored { image = image.mirrored() }
        if pose.inverted { image = image.inverted() }
        let quad = Self.quad(for: pose, aspect: Double(image.height) / Double(image.width))
        canvas.composite(image.converted(to: .rgb8), onto: quad)
        let sourceCorners = [
            PixelPoint(x: 0, y: 0), PixelPoint(x: Double(image.width), y: 0),
            PixelPoint(x: Double(image.width), y: Double(image.height)), PixelPoint(x: 0, y: Double(image.height)),
        ]
        var symbolQuad = quad
        if let transform = PerspectiveTransform(from: sourceCorners, to: quad.corners) {
            var inner = rendering.symbolRect
            if pose.mirrored { inner.x = Double(image.width) - inner.maxX }
            let c = Quad(inner)
            symbolQuad = Quad(
                topLeft: transform.apply(c.topLeft), topRight: transform.apply(c.topRight),
                bottomRight: transform.apply(c.bottomRight), bottomLeft: transform.apply(c.bottomLeft))
        }
        let code = PlacedCode(
            symbology: symbology, payload: payload, symbolQuad: symbolQuad, mirrored: pose.mirrored, inverted: pose.inverted)
        placed.append(code)
        return code
    }

    /// Pastes a photo onto `quad` (no ground truth recorded; the caller knows what it placed).
    public mutating func paste(_ photo: PixelBuffer, onto quad: Quad) {
        canvas.composite(photo.converted(to: .rgb8), onto: quad)
    }

    /// The finished scene with `degradation` applied.
    public func render(_ degradation: Degradation = .none, seed: UInt64 = 1) -> PixelBuffer {
        var random = SeededRandom(seed: seed)
        return degradation.apply(to: canvas, random: &random)
    }

    /// The destination quad of a code of the given aspect (height / width) at `pose`.
    public static func quad(for pose: CodePose, aspect: Double) -> Quad {
        let w = pose.width / 2, h = pose.width * aspect / 2
        let tilt = max(0, min(0.5, pose.tilt))
        // Far (top) edge shortened, near (bottom) edge lengthened: a card leaning away.
        // Yaw: the left end taller, the right end shorter; the perspective warp then narrows
        // the modules towards the right as a lens would.
        let yaw = max(0, min(0.5, pose.yaw))
        let (leftScale, rightScale) = (1 + yaw / 2, 1 - yaw)
        let local = [
            PixelPoint(x: -w * (1 - tilt), y: -h * (1 - tilt / 2) * leftScale),
            PixelPoint(x: w * (1 - tilt), y: -h * (1 - tilt / 2) * rightScale),
            PixelPoint(x: w * (1 + tilt / 2), y: h * rightScale), PixelPoint(x: -w * (1 + tilt / 2), y: h * leftScale),
        ]
        let angle = pose.rotation * .pi / 180
        let (c, s) = (cos(angle), sin(angle))
        let p = local.map { PixelPoint(x: pose.center.x + $0.x * c - $0.y * s, y: pose.center.y + $0.x * s + $0.y * c) }
        return Quad(topLeft: p[0], topRight: p[1], bottomRight: p[2], bottomLeft: p[3])
    }
}
