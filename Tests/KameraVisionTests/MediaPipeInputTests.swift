import COpenCVWarpReference
import Foundation
import KameraCore
import KameraNN
import KameraTestMedia
import KameraTestTiers
import Testing

@testable import KameraVision

/// The people models' inputs against MediaPipe's own: its CPU converter warps the region with
/// OpenCV's 8-bit `warpPerspective` (INTER_LINEAR), which the reference target runs here on
/// the same real photos and regions. `TensorSampler`'s MediaPipe grid must give the same grey
/// level for every sample, not merely a close one: the joints the models are unsure of move
/// with any change of input (a float resampling put 93.8 % of BlazePose's visible joints
/// within 5 % of the torso of MediaPipe's; the same inputs put 98.5 %).
@Suite("People models' inputs: the same samples as MediaPipe's OpenCV warp", .tier(.media))
struct MediaPipeInputTests {
    /// A region and how the tensor reads it.
    struct Look: CustomStringConvertible, Sendable {
        var photo: String
        var center: (x: Double, y: Double)
        var side: Double
        var degrees: Double
        var size: Int
        var border: ImageTensorFill.Border
        var description: String { "\(photo) at \(center), \(side) px, \(degrees)°, \(size)², \(border)" }
    }

    static let looks: [Look] = [
        // The whole photo letterboxed into the body detector's 224² (zero beyond it).
        Look(photo: "messi5.jpg", center: (274, 171), side: 548, degrees: 0, size: 224, border: .zero),
        Look(photo: "astronaut.png", center: (256, 256), side: 512, degrees: 0, size: 224, border: .zero),
        // Landmark crops: turned, over the edge (edge pixels repeated), larger and smaller
        // than the tensor.
        Look(photo: "messi5.jpg", center: (300.4, 180.7), side: 231.9, degrees: -17.3, size: 256, border: .replicate),
        Look(photo: "camera.png", center: (240.25, 300.5), side: 610.3, degrees: 62.8, size: 256, border: .replicate),
        Look(photo: "camera.png", center: (20.6, 490.1), side: 150.2, degrees: 151.4, size: 224, border: .replicate),
        Look(photo: "astronaut.png", center: (133.3, 101.9), side: 96.7, degrees: 90, size: 224, border: .replicate),
        Look(photo: "basketball1.png", center: (500.5, 260.2), side: 300.9, degrees: -128.6, size: 192, border: .zero),
    ]

    @Test("Every sample the grey level OpenCV's warp gives", arguments: looks)
    func sameSamples(look: Look) throws {
        let image = try SampleMedia.photo(look.photo).pixelBuffer.converted(to: .rgb8).packed()
        let size = look.size
        let rect = RotatedRect(
            center: PixelPoint(x: look.center.x, y: look.center.y), width: look.side, height: look.side,
            angle: look.degrees * .pi / 180)
        var tensor = [Float](repeating: -1, count: size * size * 3)
        tensor.withUnsafeMutableBufferPointer {
            TensorSampler(rgb: image).sample(
                rect, into: $0, width: size, height: size, range: 0...255, grid: .corners, border: look.border)
        }
        // MediaPipe hands OpenCV the angle in degrees as a float, from its radians.
        let degrees = Float(Double(Float(rect.angle) * 180) / Double.pi)
        var reference = [UInt8](repeating: 0, count: size * size * 3)
        let status = image.bytes.withUnsafeBufferPointer { pixels in
            reference.withUnsafeMutableBufferPointer { out in
                opencv_warp_reference(
                    pixels.baseAddress!, Int32(image.width), Int32(image.height), Float(rect.center.x), Float(rect.center.y),
                    Float(rect.width), Float(rect.height), degrees, out.baseAddress!, Int32(size), Int32(size),
                    look.border == .replicate ? 1 : 0)
            }
        }
        try #require(status == 0)
        let differing = zip(tensor, reference).filter { $0 != Float($1) }.count
        #expect(differing == 0, "\(differing) of \(tensor.count) samples differ from OpenCV's")
    }
}
