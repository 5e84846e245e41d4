import CKameraNNKernels

/// LOGISTIC: 1 / (1 + e^−x).
struct LogisticOperator: GraphOperator {
    static let builtinCode: Int32 = 14
    static let name = "LOGISTIC"

    var input: Int, output: Int

    init(input: Int, output: Int) { (self.input, self.output) = (input, output) }
    init(_ record: OperatorRecord) throws { self.init(input: try record.input(0), output: record.output) }

    var inputs: [Int] { [input] }

    func plan(_ planner: inout StepPlanner) throws -> any PlannedKernel {
        try planner.sameCount(input, output)
        return LogisticKernel(
            input: planner.arena(input), output: planner.arena(output),
            count: planner.tensors[output].elementCount)
    }
}

struct LogisticKernel: PlannedKernel {
    var input: Int, output: Int, count: Int
    var kernelName: String { "logistic" }

    func run(_ context: KernelContext) { knn_logistic(context.arena + input, context.arena + output, count) }
}
