/// RESHAPE: NHWC data is contiguous, so a reshape is a copy (none when the plan gives both
/// tensors the same place).
struct ReshapeOperator: UnaryGraphOperator {
    static let builtinCode: Int32 = 22
    static let name = "RESHAPE"

    var input: Int, output: Int

    func plan(_ planner: inout StepPlanner) throws -> any PlannedKernel {
        let places = try sameCountPlaces(&planner)
        return CopyKernel(input: places.input, output: places.output, count: places.count)
    }
}

struct CopyKernel: PlannedKernel {
    var input: Int, output: Int, count: Int
    var kernelName: String { "reshape" }

    func run(_ context: KernelContext) {
        if input != output { (context.arena + output).update(from: context.arena + input, count: count) }
    }
}
