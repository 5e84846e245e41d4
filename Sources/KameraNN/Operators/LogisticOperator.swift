import CKameraNNKernels

/// LOGISTIC: 1 / (1 + e^−x).
struct LogisticOperator: UnaryGraphOperator {
    static let builtinCode: Int32 = 14
    static let name = "LOGISTIC"

    var input: Int, output: Int

    func plan(_ planner: inout StepPlanner) throws -> any PlannedKernel {
        let places = try sameCountPlaces(&planner)
        return LogisticKernel(input: places.input, output: places.output, count: places.count)
    }
}

struct LogisticKernel: PlannedKernel {
    var input: Int, output: Int, count: Int
    var kernelName: String { "logistic" }

    func run(_ context: KernelContext) { knn_logistic(context.arena + input, context.arena + output, count) }
}
