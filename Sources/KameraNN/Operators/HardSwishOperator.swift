import CKameraNNKernels

/// HARD_SWISH: x · relu6(x + 3) / 6 (MobileNetV3's activation, in the segmentation models).
struct HardSwishOperator: UnaryGraphOperator {
    static let builtinCode: Int32 = 117
    static let name = "HARD_SWISH"

    var input: Int, output: Int

    func plan(_ planner: inout StepPlanner) throws -> any PlannedKernel {
        let places = try sameCountPlaces(&planner)
        return HardSwishKernel(input: places.input, output: places.output, count: places.count)
    }
}

struct HardSwishKernel: PlannedKernel {
    var input: Int, output: Int, count: Int
    var kernelName: String { "hard swish" }

    func run(_ context: KernelContext) { knn_hard_swish(context.arena + input, context.arena + output, count) }
}
