import CKameraNNKernels
import Foundation
import KameraCore
import KameraTestTiers
import Testing

@testable import KameraNN

/// Builds a one-op graph, runs it through the compiler and kernels, and returns the output.
struct OneOpGraph {
    var tensors: [GraphTensor] = []

    mutating func tensor(_ shape: [Int], floats: [Float]? = nil, ints: [Int32]? = nil) -> Int {
        tensors.append(
            GraphTensor(
                name: "t\(tensors.count)", shape: shape, elementType: ints == nil ? .float32 : .int32,
                floats: floats, ints: ints))
        return tensors.count - 1
    }

    func run(_ operations: [any GraphOperator], inputs: [(Int, [Float])], output: Int, threads: Int = 1) throws -> [Float] {
        let graph = ModelGraph(tensors: tensors, operations: operations, inputs: inputs.map(\.0), outputs: [output])
        let session = try NeuralNetwork(graph: graph, name: "test").makeSession(threads: threads)
        for (i, input) in inputs.enumerated() {
            session.withInput(i) { buffer in for j in buffer.indices { buffer[j] = input.1[j] } }
        }
        session.invoke()
        return Array(session.output(0))
    }

    /// Expects `operations` to compile into a single step (the fusions) that gives `expected`
    /// on one thread and on two.
    func expectOneStep(
        _ operations: [any GraphOperator], inputs: [(Int, [Float])], output: Int, expected: [Float], _ label: String
    ) throws {
        let graph = ModelGraph(tensors: tensors, operations: operations, inputs: inputs.map(\.0), outputs: [output])
        #expect(try NeuralNetwork(graph: graph, name: label).stepCount == 1, "\(label)")
        for threads in [1, 2] {
            expectClose(try run(operations, inputs: inputs, output: output, threads: threads), expected, label)
        }
    }
}

func expectClose(_ a: [Float], _ b: [Float], tolerance: Float = 1e-4, _ label: String) {
    #expect(a.count == b.count, "\(label): \(a.count) vs \(b.count) values")
    let worst = zip(a, b).map { abs($0 - $1) / max(1, abs($1)) }.max() ?? 0
    #expect(worst <= tolerance, "\(label): worst relative error \(worst)")
}

@Suite("KameraNN operators against reference loops on random data", .tier(.unit))
struct OperatorTests {
    @Test(
        "CONV_2D: 1×1 to 5×5, stride 1–3, SAME/VALID, fused activations, odd channel counts",
        // 3×3/1 from 3 channels to 40: the direct convolution's two-block interior (eight
        // pixels and one), then its one-block interior for the third block.
        arguments: [
            (1, 1, true, FusedActivation.none, 24, 37), (1, 1, true, .relu, 13, 16), (3, 1, true, .relu6, 3, 8),
            (3, 2, true, .none, 16, 24), (5, 2, true, .relu, 3, 24), (2, 2, false, .none, 8, 33),
            (3, 3, false, .reluMinus1To1, 5, 17), (5, 1, false, .none, 7, 48), (1, 2, true, .none, 20, 40),
            (3, 1, true, .relu, 3, 40),
        ])
    func conv(kernel: Int, stride: Int, same: Bool, activation: FusedActivation, ic: Int, oc: Int) throws {
        for threads in [1, 2] {
            var seed = UInt64(kernel * 100 + stride * 10 + ic + oc)
            let input = Tensor3.random(13, 11, ic, seed: &seed)
            let filter = randomValues(oc * kernel * kernel * ic, seed: &seed)
            let bias = randomValues(oc, seed: &seed)
            let expected = referenceConv(
                input, filter: filter, bias: bias, oc: oc, kh: kernel, kw: kernel,
                stride: stride, same: same, activation: activation)
            var g = OneOpGraph()
            let x = g.tensor([1, 13, 11, ic])
            let f = g.tensor([oc, kernel, kernel, ic], floats: filter)
            let b = g.tensor([oc], floats: bias)
            let y = g.tensor([1, expected.h, expected.w, oc])
            let window = Window(strideH: stride, strideW: stride, padding: same ? .same : .valid)
            let got = try g.run(
                [Conv2DOperator(input: x, filter: f, bias: b, output: y, window: window, activation: activation)],
                inputs: [(x, input.values)], output: y, threads: threads)
            expectClose(got, expected.values, "conv \(kernel)x\(kernel)/\(stride) threads \(threads)")
        }
    }

    @Test("CONV_2D with dilation 2")
    func dilatedConv() throws {
        var seed: UInt64 = 7
        let input = Tensor3.random(12, 12, 6, seed: &seed)
        let filter = randomValues(10 * 9 * 6, seed: &seed), bias = randomValues(10, seed: &seed)
        let expected = referenceConv(
            input, filter: filter, bias: bias, oc: 10, kh: 3, kw: 3, stride: 1, dilation: 2,
            same: true, activation: .none)
        var g = OneOpGraph()
        let x = g.tensor([1, 12, 12, 6]), f = g.tensor([10, 3, 3, 6], floats: filter), b = g.tensor([10], floats: bias)
        let y = g.tensor([1, expected.h, expected.w, 10])
        let window = Window(strideH: 1, strideW: 1, dilationH: 2, dilationW: 2, padding: .same)
        let got = try g.run(
            [Conv2DOperator(input: x, filter: f, bias: b, output: y, window: window, activation: .none)],
            inputs: [(x, input.values)], output: y)
        expectClose(got, expected.values, "dilated conv")
    }

    @Test(
        "DEPTHWISE_CONV_2D: 3×3 and 5×5, stride 1 and 2, SAME and VALID, channel tails",
        // 61 and 70 channels: the edge pixels' four blocks at a time, with the partial block
        // inside the four (61) and after them (70); 17 wide: a 5×5 row's interior of 13 takes
        // the eight-pixel step, the four-pixel one and a single pixel; 5×5/2 25 wide: a
        // strided interior of eight or more, which the eight-pixel step (stride 1) must leave.
        arguments: [
            (3, 1, true, 24, 15), (3, 2, true, 17, 15), (5, 1, true, 48, 15), (5, 2, true, 40, 15), (3, 1, false, 5, 15),
            (5, 2, false, 33, 15), (5, 1, false, 21, 15), (5, 1, true, 61, 17), (3, 2, true, 70, 15), (5, 1, true, 70, 17),
            (5, 2, true, 32, 25),
        ])
    func depthwise(kernel: Int, stride: Int, same: Bool, channels: Int, width: Int) throws {
        var seed = UInt64(kernel * 7 + stride + channels)
        let input = Tensor3.random(16, width, channels, seed: &seed)
        let filter = randomValues(kernel * kernel * channels, seed: &seed), bias = randomValues(channels, seed: &seed)
        let expected = referenceDepthwise(
            input, filter: filter, bias: bias, kh: kernel, kw: kernel, stride: stride,
            same: same, activation: .relu)
        var g = OneOpGraph()
        let x = g.tensor([1, 16, width, channels])
        let f = g.tensor([1, kernel, kernel, channels], floats: filter), b = g.tensor([channels], floats: bias)
        let y = g.tensor([1, expected.h, expected.w, channels])
        let window = Window(strideH: stride, strideW: stride, padding: same ? .same : .valid)
        for threads in [1, 2] {
            let got = try g.run(
                [
                    DepthwiseConv2DOperator(
                        input: x, filter: f, bias: b, output: y, window: window,
                        depthMultiplier: 1, activation: .relu)
                ],
                inputs: [(x, input.values)], output: y, threads: threads)
            expectClose(got, expected.values, "depthwise \(kernel)x\(kernel)/\(stride)")
        }
    }

    @Test("ADD with fused RELU, and RELU / RELU6 / PRELU / LOGISTIC standalone")
    func elementwise() throws {
        var seed: UInt64 = 11
        let a = randomValues(5 * 4 * 21, seed: &seed).map { $0 * 8 }, b = randomValues(5 * 4 * 21, seed: &seed)
        let alpha = randomValues(21, seed: &seed)
        var g = OneOpGraph()
        let x = g.tensor([1, 5, 4, 21]), y = g.tensor([1, 5, 4, 21]), sum = g.tensor([1, 5, 4, 21])
        expectClose(
            try g.run([AddOperator(x, y, output: sum, activation: .relu)], inputs: [(x, a), (y, b)], output: sum),
            zip(a, b).map { max($0 + $1, 0) }, "add+relu")
        expectClose(try g.run([ReluOperator(input: x, output: sum)], inputs: [(x, a)], output: sum), a.map { max($0, 0) }, "relu")
        expectClose(
            try g.run([Relu6Operator(input: x, output: sum)], inputs: [(x, a)], output: sum),
            a.map { min(max($0, 0), 6) }, "relu6")
        let al = g.tensor([1, 1, 21], floats: alpha)
        expectClose(
            try g.run([PReluOperator(input: x, alpha: al, output: sum)], inputs: [(x, a)], output: sum),
            a.indices.map { a[$0] < 0 ? a[$0] * alpha[$0 % 21] : a[$0] }, "prelu")
        expectClose(
            try g.run([LogisticOperator(input: x, output: sum)], inputs: [(x, a)], output: sum),
            a.map { 1 / (1 + expf(-$0)) }, tolerance: 1e-6, "logistic")
    }

    @Test("Fusion: CONV_2D followed by PRELU, and ADD followed by RELU, give the unfused results")
    func fusion() throws {
        var seed: UInt64 = 5
        let input = Tensor3.random(8, 8, 12, seed: &seed)
        let filter = randomValues(20 * 12, seed: &seed), bias = randomValues(20, seed: &seed)
        let alpha = randomValues(20, seed: &seed)
        let conv = referenceConv(input, filter: filter, bias: bias, oc: 20, kh: 1, kw: 1, stride: 1, same: true, activation: .none)
        let expected = conv.values.indices.map { conv.values[$0] < 0 ? conv.values[$0] * alpha[$0 % 20] : conv.values[$0] }
        var g = OneOpGraph()
        let x = g.tensor([1, 8, 8, 12]), f = g.tensor([20, 1, 1, 12], floats: filter), b = g.tensor([20], floats: bias)
        let mid = g.tensor([1, 8, 8, 20]), al = g.tensor([20], floats: alpha), y = g.tensor([1, 8, 8, 20])
        let ops: [any GraphOperator] = [
            Conv2DOperator(input: x, filter: f, bias: b, output: mid, window: Window(padding: .same), activation: .none),
            PReluOperator(input: mid, alpha: al, output: y),
        ]
        let graph = ModelGraph(tensors: g.tensors, operations: ops, inputs: [x], outputs: [y])
        #expect(try NeuralNetwork(graph: graph, name: "fused").stepCount == 1)
        expectClose(try g.run(ops, inputs: [(x, input.values)], output: y), expected, "conv+prelu fused")
    }

    /// A residual block's end: a 1×1 convolution, the ADD of the skip connection, a PRELU. The
    /// three run as one step (the convolution adds the skip in its epilogue), with the values
    /// of the three apart; channel counts that fill two blocks, one block and part of one, and
    /// rows for more than one of the GEMM's panels (192 rows).
    @Test(
        "Fusion: a 1×1 CONV_2D, the ADD of a skip connection and a PRELU run as one step",
        arguments: [(40, 9), (16, 9), (7, 9), (40, 30)])
    func residualAddFused(channels: Int, height: Int) throws {
        var seed: UInt64 = UInt64(channels + height)
        let input = Tensor3.random(height, 7, 12, seed: &seed), skip = Tensor3.random(height, 7, channels, seed: &seed)
        let filter = randomValues(channels * 12, seed: &seed), bias = randomValues(channels, seed: &seed)
        let alpha = randomValues(channels, seed: &seed)
        let conv = referenceConv(input, filter: filter, bias: bias, oc: channels, kh: 1, kw: 1, stride: 1, same: false, activation: .none)
        let sum = zip(conv.values, skip.values).map { $0 + $1 }
        let expected = sum.indices.map { sum[$0] < 0 ? sum[$0] * alpha[$0 % channels] : sum[$0] }
        var g = OneOpGraph()
        let x = g.tensor([1, height, 7, 12]), s = g.tensor([1, height, 7, channels])
        let f = g.tensor([channels, 1, 1, 12], floats: filter), b = g.tensor([channels], floats: bias)
        let mid = g.tensor([1, height, 7, channels]), added = g.tensor([1, height, 7, channels])
        let al = g.tensor([channels], floats: alpha), y = g.tensor([1, height, 7, channels])
        let ops: [any GraphOperator] = [
            Conv2DOperator(input: x, filter: f, bias: b, output: mid, window: Window(), activation: .none),
            AddOperator(s, mid, output: added, activation: .none),
            PReluOperator(input: added, alpha: al, output: y),
        ]
        try g.expectOneStep(
            ops, inputs: [(x, input.values), (s, skip.values)], output: y, expected: expected,
            "conv 1x1 + add + prelu, \(channels) channels")
        // The convolution's result also read elsewhere: it is kept, and the ADD (with the
        // PRELU in its epilogue) runs apart.
        let doubled = g.tensor([1, height, 7, channels])
        let shared = ops + [AddOperator(mid, mid, output: doubled, activation: .none)]
        let sharedGraph = ModelGraph(tensors: g.tensors, operations: shared, inputs: [x, s], outputs: [y, doubled])
        #expect(try NeuralNetwork(graph: sharedGraph, name: "shared").stepCount == 3)
        expectClose(
            try g.run(shared, inputs: [(x, input.values), (s, skip.values)], output: doubled), conv.values.map { $0 + $0 },
            "conv 1x1 read twice")
    }

    /// BlazeFace's blocks that add channels: the skip connection is padded with zero channels
    /// before the ADD. The PAD goes too; the convolution reads the narrower tensor, and its
    /// columns past it add nothing. Skips ending inside a column block and on one's edge.
    @Test("Fusion: a skip connection widened by zero channels is added without its PAD", arguments: [28, 16, 3])
    func channelPaddedResidualFused(skipChannels: Int) throws {
        var seed: UInt64 = UInt64(skipChannels) + 100
        let (channels, height) = (40, 30)
        let input = Tensor3.random(height, 7, 12, seed: &seed), skip = Tensor3.random(height, 7, skipChannels, seed: &seed)
        let filter = randomValues(channels * 12, seed: &seed), bias = randomValues(channels, seed: &seed)
        let conv = referenceConv(input, filter: filter, bias: bias, oc: channels, kh: 1, kw: 1, stride: 1, same: false, activation: .none)
        let expected = conv.values.indices.map { i in
            let (pixel, k) = (i / channels, i % channels)
            return max(0, conv.values[i] + (k < skipChannels ? skip.values[pixel * skipChannels + k] : 0))
        }
        var g = OneOpGraph()
        let x = g.tensor([1, height, 7, 12]), s = g.tensor([1, height, 7, skipChannels])
        let p = g.tensor([4, 2], ints: [0, 0, 0, 0, 0, 0, 0, Int32(channels - skipChannels)])
        let wide = g.tensor([1, height, 7, channels])
        let f = g.tensor([channels, 1, 1, 12], floats: filter), b = g.tensor([channels], floats: bias)
        let mid = g.tensor([1, height, 7, channels]), y = g.tensor([1, height, 7, channels])
        let ops: [any GraphOperator] = [
            PadOperator(input: s, paddings: p, output: wide),
            Conv2DOperator(input: x, filter: f, bias: b, output: mid, window: Window(), activation: .none),
            AddOperator(mid, wide, output: y, activation: .relu),
        ]
        try g.expectOneStep(
            ops, inputs: [(x, input.values), (s, skip.values)], output: y, expected: expected,
            "conv 1x1 + padded skip, \(skipChannels) of \(channels) channels")
    }

    @Test("MAX_POOL_2D 2×2 stride 2 (VALID, SAME with odd sizes) and 3×3 stride 1", arguments: [(2, 2, false), (2, 2, true), (3, 1, true)])
    func maxPool(size: Int, stride: Int, same: Bool) throws {
        var seed: UInt64 = UInt64(size * 3 + stride)
        let input = Tensor3.random(9, 7, 19, seed: &seed)
        let expected = referenceMaxPool(input, size: size, stride: stride, same: same)
        var g = OneOpGraph()
        let x = g.tensor([1, 9, 7, 19]), y = g.tensor([1, expected.h, expected.w, 19])
        let got = try g.run(
            [
                MaxPool2DOperator(
                    input: x, output: y, filterH: size, filterW: size,
                    window: Window(strideH: stride, strideW: stride, padding: same ? .same : .valid),
                    activation: .none)
            ], inputs: [(x, input.values)], output: y)
        expectClose(got, expected.values, "max pool")
    }

    @Test("PAD on the channel and spatial axes")
    func pad() throws {
        var seed: UInt64 = 3
        let input = Tensor3.random(4, 5, 6, seed: &seed)
        var g = OneOpGraph()
        let x = g.tensor([1, 4, 5, 6]), p = g.tensor([4, 2], ints: [0, 0, 1, 2, 0, 1, 0, 4])
        let y = g.tensor([1, 7, 6, 10])
        let got = try g.run([PadOperator(input: x, paddings: p, output: y)], inputs: [(x, input.values)], output: y)
        var expected = [Float](repeating: 0, count: 7 * 6 * 10)
        for yy in 0..<4 { for xx in 0..<5 { for k in 0..<6 { expected[((yy + 1) * 6 + xx) * 10 + k] = input[yy, xx, k] } } }
        expectClose(got, expected, "pad")
    }

    @Test("PAD's kernel writes every output element once: zeros round the input on every axis, over whatever was there")
    func padWritesEveryElement() {
        var seed: UInt64 = 5
        let input = Tensor3.random(3, 4, 5, seed: &seed)
        let inShape: [Int32] = [1, 3, 4, 5], before: [Int32] = [1, 0, 2, 3], outShape: [Int32] = [2, 4, 7, 10]
        // NaN where the kernel must write: any element it skips stays NaN and fails the comparison.
        var got = [Float](repeating: .nan, count: 2 * 4 * 7 * 10)
        input.values.withUnsafeBufferPointer { source in
            got.withUnsafeMutableBufferPointer { knn_pad(source.baseAddress!, inShape, before, outShape, $0.baseAddress!) }
        }
        var expected = [Float](repeating: 0, count: got.count)
        for y in 0..<3 {
            for x in 0..<4 { for k in 0..<5 { expected[((1 * 4 + y) * 7 + x + 2) * 10 + k + 3] = input[y, x, k] } }
        }
        expectClose(got, expected, "pad kernel")
    }

    /// A zero PAD of height and width before a VALID convolution becomes the convolution's
    /// padding (`NetworkCompiler`): one step instead of two, the same values. Depthwise 5×5/2
    /// (BlazePose's blocks), 3×3/2 on few and on many channels (the direct and indirect
    /// kernels), and 1×1/1 padded only below and right (not the plain GEMM any more).
    @Test(
        "A zero PAD of height and width before a convolution is absorbed into it",
        arguments: [
            (depthwise: true, kernel: 5, stride: 2, channels: 24, pads: [1, 2, 1, 2]),
            (depthwise: false, kernel: 3, stride: 2, channels: 3, pads: [0, 1, 0, 1]),
            (depthwise: false, kernel: 3, stride: 2, channels: 24, pads: [1, 1, 2, 1]),
            (depthwise: false, kernel: 1, stride: 1, channels: 24, pads: [0, 2, 0, 1]),
        ])
    func padAbsorbedIntoConvolution(depthwise: Bool, kernel: Int, stride: Int, channels: Int, pads: [Int]) throws {
        var seed: UInt64 = UInt64(kernel * 10 + channels)
        let input = Tensor3.random(11, 10, channels, seed: &seed)
        let (top, bottom, left, right) = (pads[0], pads[1], pads[2], pads[3])
        var padded = Tensor3(h: 11 + top + bottom, w: 10 + left + right, c: channels, values: [])
        padded.values = (0..<padded.h * padded.w * channels).map { i in
            let (y, x, k) = (i / channels / padded.w - top, i / channels % padded.w - left, i % channels)
            return y >= 0 && y < 11 && x >= 0 && x < 10 ? input[y, x, k] : 0
        }
        let oc = depthwise ? channels : 16
        let filter = randomValues(kernel * kernel * channels * (depthwise ? 1 : oc), seed: &seed)
        let bias = randomValues(oc, seed: &seed)
        let (kh, kw) = (kernel, kernel)
        let expected =
            depthwise
            ? referenceDepthwise(padded, filter: filter, bias: bias, kh: kh, kw: kw, stride: stride, same: false, activation: .relu)
            : referenceConv(padded, filter: filter, bias: bias, oc: oc, kh: kh, kw: kw, stride: stride, same: false, activation: .relu)
        var g = OneOpGraph()
        let x = g.tensor([1, 11, 10, channels])
        let p = g.tensor([4, 2], ints: [0, 0, Int32(top), Int32(bottom), Int32(left), Int32(right), 0, 0])
        let mid = g.tensor([1, padded.h, padded.w, channels])
        let f = g.tensor(depthwise ? [1, kernel, kernel, channels] : [oc, kernel, kernel, channels], floats: filter)
        let b = g.tensor([oc], floats: bias), y = g.tensor([1, expected.h, expected.w, oc])
        let window = Window(strideH: stride, strideW: stride, padding: .valid)
        let convolution: any GraphOperator =
            depthwise
            ? DepthwiseConv2DOperator(input: mid, filter: f, bias: b, output: y, window: window, depthMultiplier: 1, activation: .relu)
            : Conv2DOperator(input: mid, filter: f, bias: b, output: y, window: window, activation: .relu)
        try g.expectOneStep(
            [PadOperator(input: x, paddings: p, output: mid), convolution], inputs: [(x, input.values)], output: y,
            expected: expected.values, "pad + \(depthwise ? "depthwise" : "conv") \(kernel)x\(kernel)/\(stride)")
    }

    @Test("A PAD of channels, or one whose result is read twice, stays a step of its own")
    func padKeptWhereItCannotBeAbsorbed() throws {
        var seed: UInt64 = 17
        let input = Tensor3.random(6, 6, 8, seed: &seed)
        let filter = randomValues(3 * 3 * 8, seed: &seed), bias = randomValues(8, seed: &seed)
        var g = OneOpGraph()
        let x = g.tensor([1, 6, 6, 8])
        // Channels padded: a convolution cannot stand for that.
        let pc = g.tensor([4, 2], ints: [0, 0, 0, 0, 0, 0, 0, 8]), wide = g.tensor([1, 6, 6, 16])
        let f16 = g.tensor([1, 3, 3, 16], floats: filter + filter), b16 = g.tensor([16], floats: bias + bias)
        let y16 = g.tensor([1, 4, 4, 16])
        let channelOps: [any GraphOperator] = [
            PadOperator(input: x, paddings: pc, output: wide),
            DepthwiseConv2DOperator(
                input: wide, filter: f16, bias: b16, output: y16, window: Window(), depthMultiplier: 1, activation: .none),
        ]
        let channelGraph = ModelGraph(tensors: g.tensors, operations: channelOps, inputs: [x], outputs: [y16])
        #expect(try NeuralNetwork(graph: channelGraph, name: "channels").stepCount == 2)
        let got = try g.run(channelOps, inputs: [(x, input.values)], output: y16)
        // The padded channels see zeros and give their bias.
        #expect((0..<16).allSatisfy { pixel in (8..<16).allSatisfy { got[pixel * 16 + $0] == bias[$0 - 8] } })
        // Height and width padded, but the padded tensor is also a graph output.
        let ps = g.tensor([4, 2], ints: [0, 0, 1, 1, 1, 1, 0, 0]), tall = g.tensor([1, 8, 8, 8])
        let f8 = g.tensor([1, 3, 3, 8], floats: filter), b8 = g.tensor([8], floats: bias), y8 = g.tensor([1, 6, 6, 8])
        let ops: [any GraphOperator] = [
            PadOperator(input: x, paddings: ps, output: tall),
            DepthwiseConv2DOperator(input: tall, filter: f8, bias: b8, output: y8, window: Window(), depthMultiplier: 1, activation: .none),
        ]
        let graph = ModelGraph(tensors: g.tensors, operations: ops, inputs: [x], outputs: [y8, tall])
        #expect(try NeuralNetwork(graph: graph, name: "both").stepCount == 2)
    }

    @Test("RESHAPE and CONCATENATION on the last two axes")
    func reshapeConcat() throws {
        var seed: UInt64 = 9
        let a = randomValues(4 * 4 * 2 * 16, seed: &seed), b = randomValues(2 * 2 * 6 * 16, seed: &seed)
        var g = OneOpGraph()
        let x = g.tensor([1, 4, 4, 32]), ra = g.tensor([1, 32, 16])
        let z = g.tensor([1, 2, 2, 96]), rb = g.tensor([1, 24, 16])
        let out = g.tensor([1, 56, 16])
        let got = try g.run(
            [
                ReshapeOperator(input: x, output: ra), ReshapeOperator(input: z, output: rb),
                ConcatenationOperator(inputs: [ra, rb], output: out, axis: 1, activation: .none),
            ],
            inputs: [(x, a), (z, b)], output: out)
        expectClose(got, a + b, "concat axis 1")
        let c = g.tensor([1, 3, 2, 5]), d = g.tensor([1, 3, 2, 3]), e = g.tensor([1, 3, 2, 8])
        let cv = randomValues(30, seed: &seed), dv = randomValues(18, seed: &seed)
        var expected: [Float] = []
        for pixel in 0..<6 {
            expected += cv[(pixel * 5)..<(pixel * 5 + 5)]
            expected += dv[(pixel * 3)..<(pixel * 3 + 3)]
        }
        expectClose(
            try g.run(
                [ConcatenationOperator(inputs: [c, d], output: e, axis: -1, activation: .none)],
                inputs: [(c, cv), (d, dv)], output: e), expected, "concat channels")
    }

    /// Up by 2 (each input row read by two output rows), down by 3/7 (rows skipped) and up by
    /// 17/6 (rows read three times, the last row blended with itself): the kernel keeps
    /// interpolated rows between output rows, and every way of reusing them is met.
    @Test(
        "RESIZE_BILINEAR up, down and by uneven factors with each coordinate rule",
        arguments: [(false, false), (true, false), (false, true)], [(12, 10), (3, 2), (17, 9)])
    func resize(rule: (alignCorners: Bool, halfPixel: Bool), size: (height: Int, width: Int)) throws {
        let (alignCorners, halfPixel) = rule
        var seed: UInt64 = 13
        let input = Tensor3.random(6, 5, 18, seed: &seed)
        let expected = referenceResize(input, oh: size.height, ow: size.width, alignCorners: alignCorners, halfPixel: halfPixel)
        var g = OneOpGraph()
        let x = g.tensor([1, 6, 5, 18]), y = g.tensor([1, size.height, size.width, 18])
        let got = try g.run(
            [ResizeBilinearOperator(input: x, output: y, alignCorners: alignCorners, halfPixelCenters: halfPixel)],
            inputs: [(x, input.values)], output: y)
        expectClose(got, expected.values, "resize")
    }

    @Test("fp16 widening: normals, subnormals, zero, infinity")
    func halfFloats() {
        #expect(Float(halfBits: 0x3C00) == 1)
        #expect(Float(halfBits: 0xC000) == -2)
        #expect(Float(halfBits: 0x7BFF) == 65504)
        #expect(Float(halfBits: 0x0001) == 0x1p-24)
        #expect(Float(halfBits: 0x8000) == 0 && Float(halfBits: 0x8000).sign == .minus)
        #expect(Float(halfBits: 0x7C00) == .infinity)
        #expect(Float(halfBits: 0x3555) == Float(0.333251953125))
    }

    @Test("Invalid graphs are typed errors: mismatched conv filter, broadcasting ADD")
    func invalidGraphs() throws {
        var g = OneOpGraph()
        let x = g.tensor([1, 4, 4, 3]), f = g.tensor([8, 3, 3, 5], floats: [Float](repeating: 0, count: 360))
        let y = g.tensor([1, 4, 4, 8])
        #expect(throws: KameraError.self) {
            try NeuralNetwork(
                graph: ModelGraph(
                    tensors: g.tensors,
                    operations: [
                        Conv2DOperator(input: x, filter: f, bias: nil, output: y, window: Window(padding: .same), activation: .none)
                    ],
                    inputs: [x], outputs: [y]), name: "bad")
        }
        let z = g.tensor([1, 4, 4, 1]), w = g.tensor([1, 4, 4, 3])
        #expect(throws: KameraError.self) {
            try NeuralNetwork(
                graph: ModelGraph(
                    tensors: g.tensors, operations: [AddOperator(x, z, output: w, activation: .none)],
                    inputs: [x, z], outputs: [w]), name: "broadcast")
        }
    }
}
