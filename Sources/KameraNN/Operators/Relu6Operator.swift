/// RELU6: min(max(x, 0), 6); usually absorbed by the operator before it.
struct Relu6Operator: FusibleActivation {
    static let builtinCode: Int32 = 21
    static let name = "RELU6"

    var input: Int, output: Int

    init(input: Int, output: Int) { (self.input, self.output) = (input, output) }
    init(_ record: OperatorRecord) throws { self.init(input: try record.input(0), output: record.output) }

    var inputs: [Int] { [input] }

    func epilogue(after producer: GraphTensor, tensors: [GraphTensor]) -> FusedActivation? { .relu6 }

    func plan(_ planner: inout StepPlanner) throws -> any PlannedKernel {
        try planner.sameCount(input, output)
        return ActivationKernel(
            input: planner.arena(input), output: planner.arena(output),
            pixels: planner.tensors[output].elementCount, channels: 1, activation: try planner.epilogue(.relu6))
    }
}
