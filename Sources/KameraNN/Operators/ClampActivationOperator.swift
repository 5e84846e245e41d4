/// A standalone elementwise activation with no parameters (RELU, RELU6): read, fused into
/// the operator before it when possible, or run as its own pass. Each conforming operator
/// names only its TFLite code and activation.
protocol ClampActivationOperator: FusibleActivation, UnaryGraphOperator {
    /// The activation the operator applies.
    static var activation: FusedActivation { get }
}

extension ClampActivationOperator {
    func epilogue(after producer: GraphTensor, tensors: [GraphTensor]) -> FusedActivation? { Self.activation }

    func plan(_ planner: inout StepPlanner) throws -> any PlannedKernel {
        let places = try sameCountPlaces(&planner)
        return ActivationKernel(
            input: places.input, output: places.output, pixels: places.count, channels: 1,
            activation: try planner.epilogue(Self.activation))
    }
}
