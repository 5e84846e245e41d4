import CKameraNNKernels

/// LOGISTIC (1 / (1 + e^−x)) and HARD_SWISH (x · relu6(x + 3) / 6, MobileNetV3's activation
/// in the segmentation models): one input, one output of the same size, one C kernel each.
struct UnaryElementwiseOperator<Kind: UnaryElementwiseKind>: UnaryGraphOperator {
    static var builtinCode: Int32 { Kind.builtinCode }
    static var name: String { Kind.name }

    var input: Int, output: Int

    func plan(_ planner: inout StepPlanner) throws -> any PlannedKernel {
        let places = try sameCountPlaces(&planner)
        return UnaryElementwiseKernel<Kind>(input: places.input, output: places.output, count: places.count)
    }
}

/// Which function a `UnaryElementwiseOperator` applies.
protocol UnaryElementwiseKind: Sendable {
    static var builtinCode: Int32 { get }
    static var name: String { get }
    static func run(_ input: UnsafePointer<Float>, _ output: UnsafeMutablePointer<Float>, count: Int)
}

enum Logistic: UnaryElementwiseKind {
    static let builtinCode: Int32 = 14
    static let name = "LOGISTIC"
    static func run(_ input: UnsafePointer<Float>, _ output: UnsafeMutablePointer<Float>, count: Int) {
        knn_logistic(input, output, count)
    }
}

enum HardSwish: UnaryElementwiseKind {
    static let builtinCode: Int32 = 117
    static let name = "HARD_SWISH"
    static func run(_ input: UnsafePointer<Float>, _ output: UnsafeMutablePointer<Float>, count: Int) {
        knn_hard_swish(input, output, count)
    }
}

typealias LogisticOperator = UnaryElementwiseOperator<Logistic>
typealias HardSwishOperator = UnaryElementwiseOperator<HardSwish>

/// A hard-swish after a convolution runs in its epilogue (the MobileNetV3 blocks of PP-OCR's
/// detector and of the selfie-segmentation models), not as a pass of its own.
extension UnaryElementwiseOperator: FusibleActivation where Kind == HardSwish {
    func epilogue(after producer: GraphTensor, tensors: [GraphTensor]) -> FusedActivation? { .hardSwish }
}

struct UnaryElementwiseKernel<Kind: UnaryElementwiseKind>: PlannedKernel {
    var input: Int, output: Int, count: Int
    var kernelName: String { Kind.name.lowercased().replacingOccurrences(of: "_", with: " ") }

    func run(_ context: KernelContext) { Kind.run(context.arena + input, context.arena + output, count: count) }
}
