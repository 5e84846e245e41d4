import Foundation
import KameraCore
import KameraTestTiers
import Testing

@testable import KameraNN

@Suite("Fully convolutional models compiled for other input sizes", .tier(.models))
struct ModelResizingTests {
    /// A smooth pattern plus noise, like an image's activations.
    private static func pattern(width: Int, height: Int, shiftX: Int = 0) -> [Float] {
        var input = [Float](repeating: 0, count: width * height * 3)
        for y in 0..<height {
            for x in 0..<width {
                for k in 0..<3 {
                    // The same content at x in an unshifted input sits at x + shiftX here.
                    let u = x - shiftX
                    var seed = UInt64(bitPattern: Int64((u + 1000) * 7919 + y * 104_729 + k * 31))
                    seed = seed &* 6364136223846793005 &+ 1442695040888963407
                    let noise = Float(seed >> 40) / Float(1 << 24) - 0.5
                    input[(y * width + x) * 3 + k] = sin(Float(u) * 0.11 + Float(k)) * cos(Float(y) * 0.07) * 0.8 + noise * 0.4
                }
            }
        }
        return input
    }

    @Test("The full-range detector resized to its own size is the same network; other sizes scale every output")
    func shapes() throws {
        let network = try ModelStore.default.network(.faceDetectionFullRange)
        let same = try network.resized(height: 192, width: 192)
        let input = Self.pattern(width: 192, height: 192)
        #expect(try same.makeSession().run(input) == network.makeSession().run(input))
        let block = try network.resized(height: 256, width: 384)
        #expect(block.inputShapes == [[1, 256, 384, 3]])
        // Stride 4: a 96×64 anchor grid, flattened row by row.
        #expect(Set(block.outputShapes) == [[1, 96 * 64, 16], [1, 96 * 64, 1]])
    }

    @Test("A resized detector is translation-equivariant away from its borders: content moved by 32 px moves the outputs by 8 anchors")
    func equivariance() throws {
        let network = try ModelStore.default.network(.faceDetectionFullRange).resized(height: 192, width: 1600)
        let session = network.makeSession()
        let plain = try session.run(Self.pattern(width: 1600, height: 192))
        let moved = try session.run(Self.pattern(width: 1600, height: 192, shiftX: 32))
        let columns = 400
        for output in plain.indices {
            let values = plain[output].count / (columns * 48)
            var worst: Float = 0, scale: Float = 1
            // Columns 150…249 of the plain run (600…999 px) against 158…257 of the moved one: far
            // enough from either border that the padding does not reach them (the deepest layers
            // see hundreds of pixels, so a 640 px input has no such columns).
            for row in 0..<48 {
                for column in 150..<250 {
                    for k in 0..<values {
                        let a = plain[output][(row * columns + column) * values + k]
                        let b = moved[output][(row * columns + column + 8) * values + k]
                        // Box regressors are relative to the anchor, so they move with it unchanged.
                        worst = max(worst, abs(a - b))
                        scale = max(scale, abs(a))
                    }
                }
            }
            #expect(worst <= 1e-4 * scale, "output \(output): max |Δ| \(worst) of \(scale)")
        }
    }

    @Test("Sizes off the model's stride grid and models that are not fully convolutional are typed errors")
    func rejected() throws {
        let detector = try ModelStore.default.network(.faceDetectionFullRange)
        #expect(throws: KameraError.self) { try detector.resized(height: 200, width: 192) }
        #expect(throws: KameraError.self) { try detector.resized(height: 0, width: 192) }
        // The iris model flattens its features into fixed-length outputs ([1, 213]): no larger input fits them.
        let iris = try ModelStore.default.network(.irisLandmark)
        #expect(throws: KameraError.self) { try iris.resized(height: 128, width: 128) }
    }
}
