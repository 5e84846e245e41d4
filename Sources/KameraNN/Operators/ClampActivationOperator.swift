/// A standalone elementwise activation with no parameters (RELU, RELU6): read, fused into
/// the operator before it when possible, or run as its own pass. Each conforming operator
/// names only its TFLite code and activation.
protocol ClampActivationOperator: FusibleActivation {
    /// The activation the operator applies.
    static var activation: FusedActivation { get }
    var input: Int { get }
    init(input: Int, output: Int)
}

extension ClampActivationOperator {
    init(_ record: OperatorRecord) throws { self.init(input: try record.input(0), output: record.output) }

    var inputs: [Int] { [input] }

    func epilogue(after producer: GraphTensor, tensors: [GraphTensor]) -> FusedActivation? { Self.activation }

    func plan(_ planner: inout StepPlanner) throws -> any PlannedKernel {
        try planner.sameCount(input, output)
        return ActivationKernel(
            input: planner.arena(input), output: planner.arena(output),
            pixels: planner.tensors[output].elementCount, channels: 1, activation: try planner.epilogue(Self.activation))
    }
}
