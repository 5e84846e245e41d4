import Foundation
import KameraCore
import KameraTestMedia
import KameraTestTiers
import Testing

@testable import KameraNN

@Suite("The attention face mesh and MediaPipe's custom operators: KameraNN against MediaPipe's own graph", .tier(.models))
struct AttentionMeshModelTests {
    /// A real face as the mesh sees it: the astronaut's head, upright and turned 25°, as an
    /// RGB 192×192 tensor of 8-bit levels over 255 (what MediaPipe's image-to-tensor step gives).
    static func faceCrops() throws -> [[Float]] {
        let photo = try SampleMedia.photo("astronaut.png").pixelBuffer.converted(to: .rgb8)
        let upright = photo.cropped(to: PixelRect(x: 156, y: 56, width: 140, height: 140))
        let turned = upright.rotated(byDegrees: 25, fill: 128).buffer
        return [upright, turned].map { crop in
            let square = crop.resized(width: 192, height: 192)
            var tensor: [Float] = []
            tensor.reserveCapacity(192 * 192 * 3)
            for y in 0..<192 {
                for x in 0..<192 { tensor += square.pixel(x: x, y: y).prefix(3).map { Float($0) / 255 } }
            }
            return tensor
        }
    }

    @Test("Mesh, lips, eyes, irises and face flag match MediaPipe's run of the same model")
    func matchesMediaPipe() throws {
        let model = KameraModel.faceLandmarkWithAttention
        let network = try ModelStore.default.network(model)
        #expect(network.inputShapes == [[1, 192, 192, 3]])
        for (index, input) in try Self.faceCrops().enumerated() {
            let ours = try network.makeSession().run(input)
            #expect(ours.map(\.count) == [1404, 160, 142, 142, 10, 10, 1])
            let theirs = try MediaPipeReference.run(
                model: try ModelStore.default.path(of: model), input: input, height: 192, width: 192, outputs: ours.count)
            #expect(theirs.count == ours.map(\.count).reduce(0, +))
            var start = 0
            for (output, values) in ours.enumerated() {
                let reference = theirs[start..<min(start + values.count, theirs.count)]
                start += values.count
                // Landmarks in input pixels (0–192): float rounding in another summation order
                // moves them by thousandths; a wrong region crop moves lips and eyes by pixels.
                let worst = zip(values, reference).map { abs($0 - $1) }.max() ?? .infinity
                #expect(worst < 0.005, "crop \(index), output \(output): max |Δ| \(worst)")
            }
            // A face: the flag's logit is high on both crops.
            #expect((ours.last?.first ?? -1) > 2, "crop \(index): face flag \(ours.last ?? [])")
        }
    }
}
