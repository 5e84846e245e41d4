import CKameraNNKernels
import KameraTestTiers
import Testing

/// `knn_conv_direct` (first layers on the image) against im2col and the GEMM, which every
/// other convolution takes: the same outputs for strides, dilations, padding on every side,
/// channel counts that are not multiples of 16 and rows of every run length.
struct DirectConvolutionTests {
    struct Geometry: Sendable, CustomStringConvertible {
        var channels: Int, kernel: Int, stride: Int, dilation: Int, pad: Int, outputs: Int
        var description: String { "\(channels) ch, \(kernel)×\(kernel)/\(stride), dilation \(dilation), pad \(pad), \(outputs) out" }
    }

    @Test(
        "Direct convolution equals im2col + GEMM",
        arguments: [
            Geometry(channels: 3, kernel: 3, stride: 2, dilation: 1, pad: 1, outputs: 24),
            Geometry(channels: 3, kernel: 5, stride: 2, dilation: 1, pad: 2, outputs: 32),
            Geometry(channels: 1, kernel: 5, stride: 1, dilation: 1, pad: 2, outputs: 5),
            Geometry(channels: 4, kernel: 3, stride: 1, dilation: 2, pad: 2, outputs: 20),
            Geometry(channels: 2, kernel: 2, stride: 2, dilation: 1, pad: 0, outputs: 16),
        ])
    func matchesIm2colGemm(geometry g: Geometry) {
        let (ih, iw) = (13, 41)
        let span = (g.kernel - 1) * g.dilation + 1
        let oh = (ih + 2 * g.pad - span) / g.stride + 1, ow = (iw + 2 * g.pad - span) / g.stride + 1
        var random = SystemRandomNumberGenerator()
        let input = (0..<(ih * iw * g.channels)).map { _ in Float.random(in: -1...1, using: &random) }
        let k = g.kernel * g.kernel * g.channels, blocks = (g.outputs + 15) / 16
        // Packed as knn_gemm takes them: blocks of 16 outputs, [k][16], zero past the last output.
        var packed = [Float](repeating: 0, count: blocks * k * 16)
        for b in 0..<blocks {
            for i in 0..<k {
                for lane in 0..<16 where b * 16 + lane < g.outputs {
                    packed[(b * k + i) * 16 + lane] = Float.random(in: -1...1, using: &random)
                }
            }
        }
        var bias = [Float](repeating: 0, count: blocks * 16)
        for n in 0..<g.outputs { bias[n] = Float.random(in: -1...1, using: &random) }
        let act = knn_activation(kind: KNN_ACT_RELU6, alpha: nil)

        var direct = [Float](repeating: .nan, count: oh * ow * g.outputs)
        var columns = [Float](repeating: 0, count: oh * ow * k)
        var viaGemm = [Float](repeating: .nan, count: oh * ow * g.outputs)
        knn_conv_direct(
            input, Int32(ih), Int32(iw), Int32(g.channels), Int32(g.kernel), Int32(g.kernel), Int32(g.stride),
            Int32(g.stride), Int32(g.dilation), Int32(g.dilation), Int32(g.pad), Int32(g.pad), packed, bias,
            Int32(g.outputs), &direct, 0, Int32(oh), Int32(ow), act)
        knn_im2col(
            input, Int32(ih), Int32(iw), Int32(g.channels), Int32(g.kernel), Int32(g.kernel), Int32(g.stride),
            Int32(g.stride), Int32(g.dilation), Int32(g.dilation), Int32(g.pad), Int32(g.pad), 0, Int32(oh), Int32(ow),
            &columns)
        knn_gemm(columns, oh * ow, k, k, packed, bias, g.outputs, &viaGemm, g.outputs, act)

        // Written as "not close" so an output left unwritten (NaN) counts too.
        let differing = zip(direct, viaGemm).filter { !(abs($0 - $1) < 1e-4) }.count
        #expect(differing == 0, "\(differing) of \(oh * ow * g.outputs) outputs differ")
    }
}
