/// RESHAPE: NHWC data is contiguous, so a reshape is a copy (none when the plan gives both
/// tensors the same place).
struct ReshapeOperator: GraphOperator {
    static let builtinCode: Int32 = 22
    static let name = "RESHAPE"

    var input: Int, output: Int

    init(input: Int, output: Int) { (self.input, self.output) = (input, output) }
    init(_ record: OperatorRecord) throws { self.init(input: try record.input(0), output: record.output) }

    var inputs: [Int] { [input] }

    func plan(_ planner: inout StepPlanner) throws -> any PlannedKernel {
        try planner.sameCount(input, output)
        return CopyKernel(input: planner.arena(input), output: planner.arena(output), count: planner.tensors[output].elementCount)
    }
}

struct CopyKernel: PlannedKernel {
    var input: Int, output: Int, count: Int
    var kernelName: String { "reshape" }

    func run(_ context: KernelContext) {
        if input != output { (context.arena + output).update(from: context.arena + input, count: count) }
    }
}
