import Foundation
import Kamera
import KameraTestMedia
import KameraTestTiers
import Testing

/// `GenerateOpticalFlowRequest`: dense motion on a real photo shifted by a known amount.
@Suite(.tier(.unit)) struct OpticalFlowTests {
    @Test("A photo moved by (6, −4) pixels: the flow says so in the middle, at every accuracy")
    func knownShift() async throws {
        let photo = try SampleMedia.photo("building.jpg").pixelBuffer.converted(to: .gray8).resized(width: 320, height: 240)
        var moved = PixelBuffer(width: 320, height: 240, format: .gray8)
        for y in 0..<240 {
            for x in 0..<320 {
                let sx = min(319, max(0, x - 6)), sy = min(239, max(0, y + 4))
                moved.bytes[y * 320 + x] = photo.bytes[sy * 320 + sx]
            }
        }
        for accuracy in GenerateOpticalFlowRequest.ComputationAccuracy.allCases {
            var request = GenerateOpticalFlowRequest(targetedImage: Image(pixelBuffer: moved))
            request.computationAccuracy = accuracy
            let flow = try await request.perform(on: photo)
            #expect(flow.width == 320 && flow.height == 240 && flow.vectors.count == 320 * 240 * 2)
            var xs: [Double] = [], ys: [Double] = []
            for y in stride(from: 60, to: 180, by: 4) {
                for x in stride(from: 80, to: 240, by: 4) {
                    let m = flow.motion(x: x, y: y)
                    xs.append(m.x)
                    ys.append(m.y)
                }
            }
            let mx = xs.sorted()[xs.count / 2], my = ys.sorted()[ys.count / 2]
            #expect(abs(mx - 6) < 0.5 && abs(my + 4) < 0.5, "\(accuracy): median motion (\(mx), \(my))")
        }
    }

    @Test("Images of different sizes: invalidArgument")
    func sizeMismatch() async throws {
        let request = GenerateOpticalFlowRequest(targetedImage: Image(pixelBuffer: PixelBuffer(width: 30, height: 20, format: .gray8)))
        await #expect {
            _ = try await request.perform(on: PixelBuffer(width: 40, height: 20, format: .gray8))
        } throws: { ($0 as? KameraError)?.code == .invalidArgument }
    }
}
