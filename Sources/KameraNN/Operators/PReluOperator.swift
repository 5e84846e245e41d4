/// PRELU with one constant alpha per channel (BlazeFace's and Face Mesh's activation).
struct PReluOperator: FusibleActivation {
    static let builtinCode: Int32 = 54
    static let name = "PRELU"

    var input: Int, alpha: Int, output: Int

    init(input: Int, alpha: Int, output: Int) { (self.input, self.alpha, self.output) = (input, alpha, output) }
    init(_ record: OperatorRecord) throws {
        self.init(input: try record.input(0), alpha: try record.input(1), output: record.output)
    }

    var inputs: [Int] { [input, alpha] }
    var dataInputs: [Int] { [input] }

    func epilogue(after producer: GraphTensor, tensors: [GraphTensor]) -> FusedActivation? {
        tensors[alpha].floats != nil && tensors[alpha].elementCount == producer.shape.last ? .prelu(alpha: alpha) : nil
    }

    func plan(_ planner: inout StepPlanner) throws -> any PlannedKernel {
        try planner.sameCount(input, output)
        let channels = planner.tensors[input].shape.last ?? 1
        guard planner.tensors[alpha].floats?.count == channels else {
            throw planner.fail("PRELU alpha \(planner.tensors[alpha].shape) must hold one value per channel")
        }
        return ActivationKernel(
            input: planner.arena(input), output: planner.arena(output),
            pixels: planner.tensors[input].elementCount / channels, channels: channels,
            activation: try planner.epilogue(.prelu(alpha: alpha)))
    }
}
