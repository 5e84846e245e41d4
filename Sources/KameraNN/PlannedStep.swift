/// One kernel call of a compiled network. Offsets are in floats: activation offsets into the
/// session's arena, weight offsets into the network's packed weights.
enum PlannedStep: Sendable {
    /// 1×1 stride-1 convolution: a GEMM over all pixels.
    case pointwise(input: Int, rows: Int, inputChannels: Int, weights: Int, bias: Int,
                   outputChannels: Int, output: Int, activation: PlannedActivation)
    /// Any other convolution: im2col into scratch, then the GEMM.
    case convolution(ConvolutionGeometry, weights: Int, bias: Int, outputChannels: Int, activation: PlannedActivation)
    case depthwise(ConvolutionGeometry, weights: Int, bias: Int, activation: PlannedActivation)
    case maxPool(ConvolutionGeometry, activation: PlannedActivation)
    case add(Int, Int, output: Int, pixels: Int, channels: Int, activation: PlannedActivation)
    case activate(input: Int, output: Int, pixels: Int, channels: Int, activation: PlannedActivation)
    case logistic(input: Int, output: Int, count: Int)
    case pad(input: Int, inputShape: [Int32], before: [Int32], outputShape: [Int32], output: Int)
    case copy(input: Int, output: Int, count: Int)
    case concatenate(inputs: [(offset: Int, inner: Int)], outer: Int, output: Int)
    case resizeBilinear(input: Int, inputHeight: Int, inputWidth: Int, channels: Int,
                        output: Int, outputHeight: Int, outputWidth: Int, alignCorners: Bool, halfPixelCenters: Bool)
}

extension PlannedStep {
    /// A short name of the kernel, with its window for the windowed ones (profiles).
    var kernelName: String {
        switch self {
        case .pointwise: "conv 1x1"
        case .convolution(let g, _, _, _, _): "conv \(g.kernelHeight)x\(g.kernelWidth)/\(g.strideH)"
        case .depthwise(let g, _, _, _): "depthwise \(g.kernelHeight)x\(g.kernelWidth)/\(g.strideH)"
        case .maxPool: "max pool"
        case .add: "add"
        case .activate: "activation"
        case .logistic: "logistic"
        case .pad: "pad"
        case .copy: "reshape"
        case .concatenate: "concat"
        case .resizeBilinear: "resize"
        }
    }
}

/// Where a windowed op reads and writes, and its window.
struct ConvolutionGeometry: Sendable {
    var input: Int, inputHeight: Int, inputWidth: Int, inputChannels: Int
    var output: Int, outputHeight: Int, outputWidth: Int
    var kernelHeight: Int, kernelWidth: Int
    var strideH: Int, strideW: Int, dilationH: Int, dilationW: Int
    var padTop: Int, padLeft: Int
}

/// A fused activation: kind (knn_activation_kind) and, for PReLU, the alpha offset in weights.
struct PlannedActivation: Sendable {
    var kind: Int32
    var alpha: Int?

    static let none = PlannedActivation(kind: 0, alpha: nil)

    init(kind: Int32, alpha: Int?) {
        self.kind = kind
        self.alpha = alpha
    }

    init(_ fused: FusedActivation) {
        switch fused {
        case .none: kind = 0
        case .relu: kind = 1
        case .relu6: kind = 2
        case .reluMinus1To1: kind = 3
        }
        alpha = nil
    }
}
