import CKameraNNKernels
import KameraCore

/// What an operator's `plan` works with: the graph's tensors (constants folded), their arena
/// offsets, and the packed weights it appends to; with the shape checks and packing layouts
/// the kernels share.
struct StepPlanner {
    let tensors: [GraphTensor]
    let path: String
    /// Arena offset of every tensor that lives in the arena.
    let offsets: [Int: Int]
    /// Weights, biases and alphas in the kernels' layouts, each starting on a 64-byte boundary.
    private(set) var packed: [Float] = []

    init(tensors: [GraphTensor], offsets: [Int: Int], path: String) {
        self.tensors = tensors
        self.offsets = offsets
        self.path = path
    }

    func fail(_ reason: String) -> KameraError { .invalidModel(path: path, reason: reason) }

    /// Arena offset of tensor `t`.
    func arena(_ t: Int) -> Int { offsets[t]! }

    /// Height, width and channels of a single NHWC image tensor.
    func image(_ t: Int) throws -> (height: Int, width: Int, channels: Int) {
        let s = tensors[t].shape
        guard s.count == 4, s[0] == 1 else { throw fail("tensor \(tensors[t].name) \(s) is not a single NHWC image") }
        return (s[1], s[2], s[3])
    }

    func sameCount(_ a: Int, _ b: Int) throws {
        guard tensors[a].elementCount == tensors[b].elementCount else {
            throw fail("\(tensors[a].name) \(tensors[a].shape) and \(tensors[b].name) \(tensors[b].shape) differ in size")
        }
    }

    /// A constant bias of `count` values, or zeros when the operator has none.
    func biasValues(_ bias: Int?, count: Int) throws -> [Float] {
        guard let bias else { return [Float](repeating: 0, count: count) }
        guard let values = tensors[bias].floats, values.count == count else {
            throw fail("bias \(tensors[bias].name) must be constant with \(count) values")
        }
        return values
    }

    /// Output size and padding by TFLite's rules, checked against the declared output shape.
    func windowGeometry(
        input: Int, output: Int, kernelHeight kh: Int, kernelWidth kw: Int, window: Window,
        outputChannels: Int
    ) throws -> ConvolutionGeometry {
        let (ih, iw, ic) = try image(input)
        let effH = (kh - 1) * window.dilationH + 1, effW = (kw - 1) * window.dilationW + 1
        let oh: Int, ow: Int
        switch window.padding {
        case .same: oh = (ih + window.strideH - 1) / window.strideH; ow = (iw + window.strideW - 1) / window.strideW
        case .valid: oh = (ih - effH + window.strideH) / window.strideH; ow = (iw - effW + window.strideW) / window.strideW
        case .explicit(let top, let left, let bottom, let right):
            oh = (ih + top + bottom - effH) / window.strideH + 1
            ow = (iw + left + right - effW) / window.strideW + 1
        }
        guard oh > 0, ow > 0, tensors[output].shape == [1, oh, ow, outputChannels] else {
            throw fail("\(tensors[output].name) is \(tensors[output].shape), expected \([1, oh, ow, outputChannels])")
        }
        var padH = window.padding == .same ? max((oh - 1) * window.strideH + effH - ih, 0) : 0
        var padW = window.padding == .same ? max((ow - 1) * window.strideW + effW - iw, 0) : 0
        // Explicit pads: the kernels take the top and left ones (doubled here, halved below);
        // reads past the bottom and right edges are zeros already.
        if case .explicit(let top, let left, _, _) = window.padding { (padH, padW) = (2 * top, 2 * left) }
        return ConvolutionGeometry(
            input: arena(input), inputHeight: ih, inputWidth: iw, inputChannels: ic,
            output: arena(output), outputHeight: oh, outputWidth: ow, kernelHeight: kh, kernelWidth: kw,
            strideH: window.strideH, strideW: window.strideW, dilationH: window.dilationH, dilationW: window.dilationW,
            padTop: padH / 2, padLeft: padW / 2)
    }

    /// The epilogue for `activation`, packing PReLU's alpha.
    mutating func epilogue(_ activation: FusedActivation) throws -> PlannedActivation {
        switch activation {
        case .none: .none
        case .relu: PlannedActivation(kind: KNN_ACT_RELU)
        case .relu6: PlannedActivation(kind: KNN_ACT_RELU6)
        case .reluMinus1To1: PlannedActivation(kind: KNN_ACT_RELU_N1_TO_1)
        case .hardSwish: PlannedActivation(kind: KNN_ACT_HARD_SWISH)
        case .prelu(let alpha):
            PlannedActivation(kind: KNN_ACT_PRELU, alpha: packChannels(try alphaValues(alpha)))
        case .scaled(let inner, let scale, let shift):
            try {
                var planned = try epilogue(inner)
                (planned.scale, planned.shift) = (planned.scale * scale, planned.shift * scale + shift)
                return planned
            }()
        }
    }

    /// PReLU's constant alpha values.
    func alphaValues(_ alpha: Int) throws -> [Float] {
        guard let values = tensors[alpha].floats else { throw fail("PRELU alpha \(tensors[alpha].name) must be constant") }
        return values
    }

    /// Appends `count` values, starting on a 64-byte boundary; returns their offset.
    mutating func appendPacked(count: Int, _ value: (Int) -> Float) -> Int {
        while packed.count % 16 != 0 { packed.append(0) }
        let offset = packed.count
        // Grow geometrically: reserving just what this call needs made every call copy all the
        // weights packed so far (quadratic; 0.25 s of the attention mesh's 1.25 M weights).
        if packed.capacity < packed.count + count { packed.reserveCapacity(max(packed.count + count, 2 * packed.capacity)) }
        for i in 0..<count { packed.append(value(i)) }
        return offset
    }

    /// A per-channel vector padded to whole 16-lane blocks.
    mutating func packChannels(_ values: [Float]) -> Int {
        appendPacked(count: (values.count + 15) / 16 * 16) { $0 < values.count ? values[$0] : 0 }
    }

    /// `[k][channels]` values as blocks of 16 channels, each block `[k][16]`.
    mutating func packBlocks(count k: Int, channels: Int, _ value: (Int, Int) -> Float) -> Int {
        let blocks = (channels + 15) / 16
        return appendPacked(count: blocks * k * 16) { i in
            let block = i / (k * 16), rest = i % (k * 16)
            let (kk, lane) = (rest / 16, rest % 16)
            let channel = block * 16 + lane
            return channel < channels ? value(kk, channel) : 0
        }
    }
}
