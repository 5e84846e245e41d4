/// A model as read from its file: tensors and operations in execution order, before any
/// planning. Shapes are NHWC as in TFLite; constant tensors carry their values as Float
/// (fp16 already widened) or Int32.
struct ModelGraph: Sendable {
    var tensors: [GraphTensor]
    var operations: [GraphOperation]
    var inputs: [Int]
    var outputs: [Int]
}

/// One tensor of the graph.
struct GraphTensor: Sendable {
    var name: String
    var shape: [Int]
    var elementType: TensorElementType
    /// Constant contents (weights, biases), widened to Float.
    var floats: [Float]?
    /// Constant Int32 contents (paddings, shapes, sizes).
    var ints: [Int32]?

    var elementCount: Int { shape.reduce(1, *) }
    var isConstant: Bool { floats != nil || ints != nil }
}

/// Element types the runtime understands.
enum TensorElementType: Sendable, Equatable {
    case float32, float16, int32
    case unsupported(UInt8)
}

/// TFLite's fused activation functions (the ones these models use).
enum FusedActivation: Sendable, Equatable {
    case none, relu, relu6, reluMinus1To1
}

/// TFLite's padding schemes.
enum Padding: Sendable, Equatable {
    case same, valid
}

/// Window parameters shared by convolutions and pooling.
struct Window: Sendable, Equatable {
    var strideH = 1, strideW = 1
    var dilationH = 1, dilationW = 1
    var padding = Padding.valid
}

/// The operations KameraNN executes, with their tensor indices and options.
enum GraphOperation: Sendable {
    case conv2D(input: Int, filter: Int, bias: Int?, output: Int, window: Window, activation: FusedActivation)
    case depthwiseConv2D(input: Int, filter: Int, bias: Int?, output: Int, window: Window,
                         depthMultiplier: Int, activation: FusedActivation)
    case add(Int, Int, output: Int, activation: FusedActivation)
    case relu(input: Int, output: Int)
    case relu6(input: Int, output: Int)
    case prelu(input: Int, alpha: Int, output: Int)
    case maxPool2D(input: Int, output: Int, filterH: Int, filterW: Int, window: Window, activation: FusedActivation)
    case pad(input: Int, paddings: Int, output: Int)
    case reshape(input: Int, output: Int)
    case concatenation(inputs: [Int], output: Int, axis: Int, activation: FusedActivation)
    case logistic(input: Int, output: Int)
    case resizeBilinear(input: Int, output: Int, alignCorners: Bool, halfPixelCenters: Bool)
    case dequantize(input: Int, output: Int)

    /// The op's name as TFLite spells it, for error messages.
    var name: String {
        switch self {
        case .conv2D: "CONV_2D"
        case .depthwiseConv2D: "DEPTHWISE_CONV_2D"
        case .add: "ADD"
        case .relu: "RELU"
        case .relu6: "RELU6"
        case .prelu: "PRELU"
        case .maxPool2D: "MAX_POOL_2D"
        case .pad: "PAD"
        case .reshape: "RESHAPE"
        case .concatenation: "CONCATENATION"
        case .logistic: "LOGISTIC"
        case .resizeBilinear: "RESIZE_BILINEAR"
        case .dequantize: "DEQUANTIZE"
        }
    }

    /// Tensors the op reads.
    var inputs: [Int] {
        switch self {
        case .conv2D(let i, let f, let b, _, _, _), .depthwiseConv2D(let i, let f, let b, _, _, _, _):
            [i, f] + (b.map { [$0] } ?? [])
        case .add(let a, let b, _, _): [a, b]
        case .relu(let i, _), .relu6(let i, _), .reshape(let i, _), .logistic(let i, _),
             .resizeBilinear(let i, _, _, _), .dequantize(let i, _), .maxPool2D(let i, _, _, _, _, _):
            [i]
        case .prelu(let i, let a, _): [i, a]
        case .pad(let i, let p, _): [i, p]
        case .concatenation(let ins, _, _, _): ins
        }
    }

    /// The tensor the op writes.
    var output: Int {
        switch self {
        case .conv2D(_, _, _, let o, _, _), .depthwiseConv2D(_, _, _, let o, _, _, _), .add(_, _, let o, _),
             .relu(_, let o), .relu6(_, let o), .prelu(_, _, let o), .maxPool2D(_, let o, _, _, _, _),
             .pad(_, _, let o), .reshape(_, let o), .concatenation(_, let o, _, _), .logistic(_, let o),
             .resizeBilinear(_, let o, _, _), .dequantize(_, let o):
            o
        }
    }
}
