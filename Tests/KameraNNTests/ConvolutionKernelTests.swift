import CKameraNNKernels
import KameraTestTiers
import Testing

/// The two window-convolution kernels — `knn_conv_direct` (first layers on the image) and
/// `knn_conv_indirect` (every other K×K convolution, reading each tap in place) — against a
/// plain loop: strides, dilations, padding on every side, channel counts that are not
/// multiples of 16, output counts that leave partial tiles, and the epilogues (ReLU6;
/// hard-swish followed by a scale and shift, as PP-OCR's blocks run).
@Suite(.tier(.unit))
struct ConvolutionKernelTests {
    struct Geometry: Sendable, CustomStringConvertible {
        var channels: Int, kernel: Int, stride: Int, dilation: Int, pad: Int, outputs: Int
        var description: String { "\(channels) ch, \(kernel)×\(kernel)/\(stride), dilation \(dilation), pad \(pad), \(outputs) out" }
    }

    static let geometries = [
        Geometry(channels: 3, kernel: 3, stride: 2, dilation: 1, pad: 1, outputs: 24),
        Geometry(channels: 3, kernel: 5, stride: 2, dilation: 1, pad: 2, outputs: 32),
        Geometry(channels: 1, kernel: 5, stride: 1, dilation: 1, pad: 2, outputs: 5),
        Geometry(channels: 4, kernel: 3, stride: 1, dilation: 2, pad: 2, outputs: 20),
        Geometry(channels: 2, kernel: 2, stride: 2, dilation: 1, pad: 0, outputs: 16),
        Geometry(channels: 24, kernel: 3, stride: 1, dilation: 1, pad: 1, outputs: 24),
        Geometry(channels: 37, kernel: 3, stride: 2, dilation: 1, pad: 1, outputs: 40),
        Geometry(channels: 16, kernel: 9, stride: 1, dilation: 1, pad: 4, outputs: 7),
    ]

    /// Random weights packed as the kernels take them: blocks of 16 outputs, [k][16], zero
    /// past the last output; the bias padded to the blocks.
    struct Problem {
        let g: Geometry
        let ih = 13, iw = 41
        let oh: Int, ow: Int, k: Int
        var input: [Float], packed: [Float], bias: [Float]

        init(_ g: Geometry) {
            self.g = g
            let span = (g.kernel - 1) * g.dilation + 1
            (oh, ow) = ((ih + 2 * g.pad - span) / g.stride + 1, (iw + 2 * g.pad - span) / g.stride + 1)
            k = g.kernel * g.kernel * g.channels
            var random = SystemRandomNumberGenerator()
            input = (0..<(ih * iw * g.channels)).map { _ in Float.random(in: -2...2, using: &random) }
            let blocks = (g.outputs + 15) / 16
            packed = [Float](repeating: 0, count: blocks * k * 16)
            for b in 0..<blocks {
                for i in 0..<k {
                    for lane in 0..<16 where b * 16 + lane < g.outputs {
                        packed[(b * k + i) * 16 + lane] = Float.random(in: -1...1, using: &random) / Float(g.kernel)
                    }
                }
            }
            bias = [Float](repeating: 0, count: blocks * 16)
            for n in 0..<g.outputs { bias[n] = Float.random(in: -1...1, using: &random) }
        }

        /// The plain loop, with the same weights read back out of the packing.
        func reference(_ activation: (Float) -> Float) -> [Float] {
            var out = [Float](repeating: 0, count: oh * ow * g.outputs)
            for oy in 0..<oh {
                for ox in 0..<ow {
                    for o in 0..<g.outputs {
                        var sum = bias[o]
                        for ky in 0..<g.kernel {
                            for kx in 0..<g.kernel {
                                let iy = oy * g.stride - g.pad + ky * g.dilation, ix = ox * g.stride - g.pad + kx * g.dilation
                                guard iy >= 0, iy < ih, ix >= 0, ix < iw else { continue }
                                for c in 0..<g.channels {
                                    let kk = (ky * g.kernel + kx) * g.channels + c
                                    sum += input[(iy * iw + ix) * g.channels + c] * packed[((o / 16) * k + kk) * 16 + o % 16]
                                }
                            }
                        }
                        out[(oy * ow + ox) * g.outputs + o] = activation(sum)
                    }
                }
            }
            return out
        }

        func direct(_ act: knn_activation) -> [Float] {
            var out = [Float](repeating: .nan, count: oh * ow * g.outputs)
            knn_conv_direct(
                input, Int32(ih), Int32(iw), Int32(g.channels), Int32(g.kernel), Int32(g.kernel), Int32(g.stride),
                Int32(g.stride), Int32(g.dilation), Int32(g.dilation), Int32(g.pad), Int32(g.pad), packed, bias,
                Int32(g.outputs), &out, 0, Int32(oh), Int32(ow), act)
            return out
        }

        /// In two pixel ranges split mid-tile, as two threads run it.
        func indirect(_ act: knn_activation) -> [Float] {
            var out = [Float](repeating: .nan, count: oh * ow * g.outputs)
            let zeros = [Float](repeating: 0, count: g.channels)
            let split = oh * ow / 2 + 1
            for (p0, p1) in [(0, split), (split, oh * ow)] {
                knn_conv_indirect(
                    input, Int32(ih), Int32(iw), Int32(g.channels), Int32(g.kernel), Int32(g.kernel), Int32(g.stride),
                    Int32(g.stride), Int32(g.dilation), Int32(g.dilation), Int32(g.pad), Int32(g.pad), packed, bias,
                    g.outputs, &out, Int32(ow), p0, p1, zeros, act)
            }
            return out
        }
    }

    /// Written as "not close" so an output left unwritten (NaN) counts too.
    static func differing(_ a: [Float], _ b: [Float]) -> Int { zip(a, b).filter { !(abs($0 - $1) < 1e-4) }.count }

    @Test("Direct and indirect convolutions with ReLU6 equal the plain loop", arguments: geometries)
    func relu6(geometry g: Geometry) {
        let problem = Problem(g)
        let expected = problem.reference { min(max($0, 0), 6) }
        let act = knn_activation(kind: KNN_ACT_RELU6, alpha: nil, scale: 1, shift: 0)
        #expect(Self.differing(problem.indirect(act), expected) == 0)
        if g.channels <= 4 { #expect(Self.differing(problem.direct(act), expected) == 0) }
    }

    @Test("Hard-swish, then a scale and a shift, in the epilogue", arguments: geometries.suffix(3))
    func hardSwishAffine(geometry g: Geometry) {
        let problem = Problem(g)
        let expected = problem.reference { x in x * min(max(x + 3, 0), 6) / 6 * 0.75 - 0.25 }
        let act = knn_activation(kind: KNN_ACT_HARD_SWISH, alpha: nil, scale: 0.75, shift: -0.25)
        let got = problem.indirect(act)
        #expect(Self.differing(got, expected) == 0)
        // Not the identity: some outputs are in hard-swish's curved part.
        #expect(expected.contains { $0 > -0.25 && $0 < 0 })
    }
}
