/// A model as read from its file: tensors and operations in execution order, before any
/// planning. Shapes are NHWC as in TFLite; constant tensors carry their values as Float
/// (fp16 already widened) or Int32.
struct ModelGraph: Sendable {
    var tensors: [GraphTensor]
    var operations: [any GraphOperator]
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

/// The activation an operator applies to its results before storing them: TFLite's fused
/// activation functions (the ones these models use), or a following PRELU the compiler
/// absorbed (`alpha` is its constant per-channel tensor).
enum FusedActivation: Sendable, Equatable {
    case none, relu, relu6, reluMinus1To1, hardSwish
    case prelu(alpha: Int)
    /// An activation, then `· scale + shift` (one value for every channel).
    indirect case scaled(FusedActivation, scale: Float, shift: Float)
}

/// TFLite's padding schemes, and ONNX's explicit pads (a stride-2 convolution padded one
/// pixel on each side reads one row higher than TFLite's SAME, which pads only at the end).
enum Padding: Sendable, Equatable {
    case same, valid
    case explicit(top: Int, left: Int, bottom: Int, right: Int)
}

/// Window parameters shared by convolutions and pooling.
struct Window: Sendable, Equatable {
    var strideH = 1, strideW = 1
    var dilationH = 1, dilationW = 1
    var padding = Padding.valid
}
