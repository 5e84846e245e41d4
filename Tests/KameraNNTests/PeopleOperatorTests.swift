import Foundation
import KameraCore
import KameraTestTiers
import Testing

@testable import KameraNN

/// The operators the body, hand and segmentation models added, against loops written from
/// TFLite's definitions; the whole models are compared with LiteRT in `ModelReferenceTests`.
@Suite("KameraNN operators for the people models against reference loops", .tier(.unit))
struct PeopleOperatorTests {
    @Test("HARD_SWISH: x · relu6(x + 3) / 6, across its three pieces")
    func hardSwish() throws {
        var seed: UInt64 = 11
        let input = randomValues(5 * 7 * 19, seed: &seed).map { $0 * 5 }  // −5…5 spans every piece
        var g = OneOpGraph()
        let x = g.tensor([1, 5, 7, 19]), y = g.tensor([1, 5, 7, 19])
        let got = try g.run([HardSwishOperator(input: x, output: y)], inputs: [(x, input)], output: y)
        expectClose(got, input.map { $0 * min(max($0 + 3, 0), 6) / 6 }, "hard swish")
    }

    @Test("A convolution's hard-swish, scale and shift run in its epilogue, as the separate steps would")
    func hardSwishChainFused() throws {
        var seed: UInt64 = 13
        let (ic, oc) = (20, 24)
        let input = Tensor3.random(9, 11, ic, seed: &seed)
        let filter = randomValues(oc * 9 * ic, seed: &seed).map { $0 * 2 }, bias = randomValues(oc, seed: &seed)
        let conv = referenceConv(input, filter: filter, bias: bias, oc: oc, kh: 3, kw: 3, stride: 1, same: true, activation: .none)
        let expected = conv.values.map { x in (x * min(max(x + 3, 0), 6) / 6 * 1.5 + 0.5) * -2 + 0.25 }
        var g = OneOpGraph()
        let x = g.tensor([1, 9, 11, ic]), f = g.tensor([oc, 3, 3, ic], floats: filter), b = g.tensor([oc], floats: bias)
        let (c, h, s, y) = (g.tensor([1, 9, 11, oc]), g.tensor([1, 9, 11, oc]), g.tensor([1, 9, 11, oc]), g.tensor([1, 9, 11, oc]))
        let operations: [any GraphOperator] = [
            Conv2DOperator(input: x, filter: f, bias: b, output: c, window: Window(padding: .same), activation: .none),
            HardSwishOperator(input: c, output: h),
            ChannelAffineOperator(input: h, output: s, scale: [1.5], shift: [0.5]),
            ChannelAffineOperator(input: s, output: y, scale: [-2], shift: [0.25]),
        ]
        let network = try NeuralNetwork(
            graph: ModelGraph(tensors: g.tensors, operations: operations, inputs: [x], outputs: [y]), name: "chain")
        #expect(network.compiled.steps.count == 1, "\(network.compiled.steps.map(\.kernelName))")
        let got = try g.run(operations, inputs: [(x, input.values)], output: y)
        expectClose(got, expected, "conv + hard swish + two affines")
        // The inputs span hard-swish's three pieces.
        #expect(conv.values.contains { $0 < -3 } && conv.values.contains { abs($0) < 3 } && conv.values.contains { $0 > 3 })
    }

    @Test("MUL: elementwise, and one factor per channel in either position, with a fused RELU")
    func mul() throws {
        var seed: UInt64 = 12
        let (h, w, c) = (6, 5, 21)
        let a = randomValues(h * w * c, seed: &seed), same = randomValues(h * w * c, seed: &seed)
        let gate = randomValues(c, seed: &seed)
        var g = OneOpGraph()
        let x = g.tensor([1, h, w, c]), z = g.tensor([1, h, w, c]), k = g.tensor([1, 1, 1, c]), y = g.tensor([1, h, w, c])
        let elementwise = try g.run([MulOperator(x, z, output: y, activation: .none)], inputs: [(x, a), (z, same)], output: y)
        expectClose(elementwise, zip(a, same).map(*), "mul")
        let expected = a.indices.map { max(0, a[$0] * gate[$0 % c]) }
        for operation in [MulOperator(x, k, output: y, activation: .relu), MulOperator(k, x, output: y, activation: .relu)] {
            let got = try g.run([operation], inputs: [(x, a), (k, gate)], output: y)
            expectClose(got, expected, "mul per channel")
        }
    }

    @Test("AVERAGE_POOL_2D: global (the models'), 2×2 stride 2 and 3×3 SAME where padding is not counted")
    func averagePool() throws {
        var seed: UInt64 = 13
        let input = Tensor3.random(9, 7, 18, seed: &seed)
        for (kh, kw, stride, same) in [(9, 7, 1, false), (2, 2, 2, false), (3, 3, 1, true)] {
            let (oh, padTop) = same ? samePadding(9, kernel: kh, stride: stride, dilation: 1) : ((9 - kh) / stride + 1, 0)
            let (ow, padLeft) = same ? samePadding(7, kernel: kw, stride: stride, dilation: 1) : ((7 - kw) / stride + 1, 0)
            var expected = [Float]()
            for oy in 0..<oh {
                for ox in 0..<ow {
                    for k in 0..<18 {
                        var sum: Float = 0
                        var cells = 0
                        for ky in 0..<kh {
                            for kx in 0..<kw {
                                let (iy, ix) = (oy * stride - padTop + ky, ox * stride - padLeft + kx)
                                guard (0..<9).contains(iy), (0..<7).contains(ix) else { continue }
                                sum += input[iy, ix, k]
                                cells += 1
                            }
                        }
                        expected.append(sum / Float(cells))
                    }
                }
            }
            var g = OneOpGraph()
            let x = g.tensor([1, 9, 7, 18]), y = g.tensor([1, oh, ow, 18])
            let window = Window(strideH: stride, strideW: stride, padding: same ? .same : .valid)
            let pool = AveragePool2DOperator(input: x, output: y, filterH: kh, filterW: kw, window: window, activation: .none)
            expectClose(try g.run([pool], inputs: [(x, input.values)], output: y), expected, "average pool \(kh)×\(kw)")
        }
    }

    @Test("MEAN over height and width, dimensions kept or dropped; other axes are refused")
    func mean() throws {
        var seed: UInt64 = 14
        let input = Tensor3.random(8, 6, 35, seed: &seed)
        let expected: [Float] = (0..<35).map { k in
            var sum: Float = 0
            for pixel in 0..<48 { sum += input.values[pixel * 35 + k] }
            return sum / 48
        }
        for outputShape in [[1, 1, 1, 35], [1, 35]] {
            var g = OneOpGraph()
            let x = g.tensor([1, 8, 6, 35]), axes = g.tensor([2], ints: [1, 2]), y = g.tensor(outputShape)
            let got = try g.run([MeanOperator(input: x, axes: axes, output: y)], inputs: [(x, input.values)], output: y)
            expectClose(got, expected, "mean \(outputShape)")
        }
        var g = OneOpGraph()
        let x = g.tensor([1, 8, 6, 35]), axes = g.tensor([1], ints: [3]), y = g.tensor([1, 8, 6, 1])
        #expect(throws: KameraError.self) {
            try g.run([MeanOperator(input: x, axes: axes, output: y)], inputs: [(x, input.values)], output: y)
        }
    }

    @Test("FULLY_CONNECTED: [1, K] and [2, K] by [N, K] with bias and a fused RELU6", arguments: [(1, 1152, 63), (2, 37, 20)])
    func fullyConnected(rows: Int, k: Int, n: Int) throws {
        var seed = UInt64(rows * 1000 + k + n)
        let input = randomValues(rows * k, seed: &seed), weights = randomValues(n * k, seed: &seed)
        let bias = randomValues(n, seed: &seed)
        var expected = [Float]()
        for r in 0..<rows {
            for o in 0..<n {
                var dot = bias[o]
                for i in 0..<k { dot += input[r * k + i] * weights[o * k + i] }
                expected.append(min(max(dot, 0), 6))
            }
        }
        var g = OneOpGraph()
        let x = g.tensor([rows, k]), w = g.tensor([n, k], floats: weights), b = g.tensor([n], floats: bias)
        let y = g.tensor([rows, n])
        let got = try g.run(
            [FullyConnectedOperator(input: x, weights: w, bias: b, output: y, activation: .relu6)], inputs: [(x, input)], output: y)
        expectClose(got, expected, "fully connected")
    }

    @Test("DEPTH_TO_SPACE by 2 and 3: each pixel's channels become its block, in TFLite's (DCR) order")
    func depthToSpace() throws {
        var seed: UInt64 = 16
        for block in [2, 3] {
            let (h, w, oc) = (4, 3, 5)
            let c = oc * block * block
            let input = Tensor3.random(h, w, c, seed: &seed)
            var expected = [Float](repeating: 0, count: h * block * w * block * oc)
            for y in 0..<(h * block) {
                for x in 0..<(w * block) {
                    for k in 0..<oc {
                        let channel = ((y % block) * block + x % block) * oc + k
                        expected[(y * w * block + x) * oc + k] = input[y / block, x / block, channel]
                    }
                }
            }
            var g = OneOpGraph()
            let xIn = g.tensor([1, h, w, c]), y = g.tensor([1, h * block, w * block, oc])
            let got = try g.run([DepthToSpaceOperator(input: xIn, output: y, blockSize: block)], inputs: [(xIn, input.values)], output: y)
            expectClose(got, expected, "depth to space \(block)")
        }
        var g = OneOpGraph()
        let xIn = g.tensor([1, 2, 2, 6]), y = g.tensor([1, 4, 4, 1])
        #expect(throws: KameraError.self) {
            try g.run(
                [DepthToSpaceOperator(input: xIn, output: y, blockSize: 2)], inputs: [(xIn, [Float](repeating: 0, count: 24))], output: y)
        }
    }

    @Test("Convolution2DTransposeBias with kernel = stride; any other kernel is a typed error")
    func transposeConvolution() throws {
        var seed: UInt64 = 15
        let (h, w, c, oc) = (5, 4, 16, 3)
        let input = Tensor3.random(h, w, c, seed: &seed)
        let weights = randomValues(oc * 2 * 2 * c, seed: &seed), bias = randomValues(oc, seed: &seed)
        var expected = [Float](repeating: 0, count: 2 * h * 2 * w * oc)
        for y in 0..<h {
            for x in 0..<w {
                for dy in 0..<2 {
                    for dx in 0..<2 {
                        for o in 0..<oc {
                            let at = ((2 * y + dy) * 2 * w + 2 * x + dx) * oc + o
                            var sum = bias[o]
                            for i in 0..<c { sum += input[y, x, i] * weights[((o * 2 + dy) * 2 + dx) * c + i] }
                            expected[at] = sum
                        }
                    }
                }
            }
        }
        for threads in [1, 2] {
            var g = OneOpGraph()
            let x = g.tensor([1, h, w, c]), f = g.tensor([oc, 2, 2, c], floats: weights), b = g.tensor([oc], floats: bias)
            let y = g.tensor([1, 2 * h, 2 * w, oc])
            let operation = TransposeConvBiasOperator(input: x, weights: f, bias: b, output: y, strideW: 2, strideH: 2)
            expectClose(try g.run([operation], inputs: [(x, input.values)], output: y, threads: threads), expected, "transpose conv")
        }
        var g = OneOpGraph()
        let x = g.tensor([1, h, w, c]), f = g.tensor([oc, 3, 3, c], floats: randomValues(oc * 9 * c, seed: &seed))
        let b = g.tensor([oc], floats: bias), y = g.tensor([1, 2 * h, 2 * w, oc])
        let overlapping = TransposeConvBiasOperator(input: x, weights: f, bias: b, output: y, strideW: 2, strideH: 2)
        #expect(throws: KameraError.self) { try g.run([overlapping], inputs: [(x, input.values)], output: y) }
    }
}
