import Foundation
import KameraCore
import KameraImageIO

/// Synthetic scenes made of real face photos pasted at known places, sizes and rotations, with
/// the ground truth of each face.
public struct FaceScene: Sendable {
    /// A face placed in a scene: its expected box centre and side in scene pixels, and its
    /// roll (radians, counter-clockwise as seen, the `FaceObservation` convention).
    public struct PlacedFace: Sendable {
        public var center: PixelPoint
        public var faceSide: Double
        public var roll: Double
        /// Maps points of the source photo to the scene.
        public var transform: PerspectiveTransform
    }

    /// The astronaut's head cut from scikit-image's astronaut.png, and where her face is in the
    /// cut (hand-labelled: brows to chin, ear to ear).
    public static func astronautHead() throws -> (image: PixelBuffer, face: PixelRect) {
        let photo = try SampleMedia.photo("astronaut.png").pixelBuffer.converted(to: .rgb8)
        let crop = PixelRect(x: 140, y: 40, width: 170, height: 175)
        return (photo.cropped(to: crop), PixelRect(x: 40, y: 40, width: 92, height: 92))
    }

    /// The cameraman's head cut from scikit-image's camera.png (grey, three-quarter profile
    /// behind his camera), and where his face is in the cut (hand-labelled).
    public static func cameramanHead() throws -> (image: PixelBuffer, face: PixelRect) {
        let photo = try SampleMedia.photo("camera.png").pixelBuffer.converted(to: .rgb8)
        return (photo.cropped(to: PixelRect(x: 150, y: 70, width: 150, height: 170)), PixelRect(x: 41, y: 54, width: 65, height: 65))
    }

    public private(set) var composer: SceneComposer
    public private(set) var faces: [PlacedFace] = []

    /// A scene over one of the sample backgrounds.
    public init(background: String = "building.jpg", width: Int, height: Int) throws {
        composer = SceneComposer(background: try SampleMedia.photo(background).pixelBuffer, width: width, height: height)
    }

    /// Pastes `head` so its face is `faceSide` pixels wide, centred at `center`, turned
    /// `degrees` clockwise on screen (so the expected roll is −degrees).
    public mutating func place(
        _ head: (image: PixelBuffer, face: PixelRect), faceCenter center: PixelPoint,
        faceSide: Double, degrees: Double
    ) {
        let scale = faceSide / head.face.width
        // Place the whole cut so that the face centre lands on `center`.
        let offset = PixelPoint(
            x: (head.face.center.x - Double(head.image.width) / 2) * scale,
            y: (head.face.center.y - Double(head.image.height) / 2) * scale)
        let angle = degrees * .pi / 180
        let (c, s) = (cos(angle), sin(angle))
        let imageCenter = PixelPoint(x: center.x - (offset.x * c - offset.y * s), y: center.y - (offset.x * s + offset.y * c))
        let pose = CodePose(center: imageCenter, width: Double(head.image.width) * scale, rotation: degrees)
        let quad = SceneComposer.quad(for: pose, aspect: Double(head.image.height) / Double(head.image.width))
        composer.paste(head.image, onto: quad)
        let w = Double(head.image.width), h = Double(head.image.height)
        let transform = PerspectiveTransform(
            from: [PixelPoint(x: 0, y: 0), PixelPoint(x: w, y: 0), PixelPoint(x: w, y: h), PixelPoint(x: 0, y: h)],
            to: quad.corners)!
        faces.append(PlacedFace(center: center, faceSide: faceSide, roll: -angle, transform: transform))
    }

    /// The finished scene.
    public var image: PixelBuffer { composer.canvas }
}
