/// One TFLite operator KameraNN runs. Each lives in its own file under `Operators/` with
/// everything about it — how it is read from the model file (`init(_:)`), which inputs are
/// activations, shape checks and weight packing (`plan`), and the kernel call of the step it
/// plans — as TFLite Micro keeps one operator per file in `kernels/`. Adding an operator: a
/// file here, its C kernel, and its type in `OperatorRegistry`.
protocol GraphOperator: Sendable {
    /// TFLite's builtin code (schema.fbs `BuiltinOperator`).
    static var builtinCode: Int32 { get }
    /// TFLite's name, for errors.
    static var name: String { get }
    /// A custom operator's name (its code is CUSTOM, 32); nil for builtins.
    static var customCode: String? { get }
    /// Reads the operator from its record in the model file.
    init(_ record: OperatorRecord) throws
    /// Tensors the operator reads.
    var inputs: [Int] { get }
    /// Tensors read as activations, not weights, biases, alphas or shape tensors.
    var dataInputs: [Int] { get }
    /// The tensor the operator writes.
    var output: Int { get }
    /// Folds the operator into constant tensors at compile time; true when nothing is left to run.
    func fold(_ tensors: inout [GraphTensor]) throws -> Bool
    /// Checks shapes, packs weights and returns the step that runs the operator.
    func plan(_ planner: inout StepPlanner) throws -> any PlannedKernel
}

extension GraphOperator {
    static var customCode: String? { nil }
    var dataInputs: [Int] { inputs }
    func fold(_ tensors: inout [GraphTensor]) throws -> Bool { false }
}

/// An operator that applies an activation to its results before storing them, so a
/// RELU/RELU6/PRELU that only reads it can be absorbed (one pass over memory instead of two).
protocol ActivationFusing: GraphOperator {
    var output: Int { get set }
    var activation: FusedActivation { get set }
}

/// A convolution whose kernel reads zeros wherever its window leaves the input, so a zero PAD
/// of height and width before it can become its explicit padding (`NetworkCompiler`).
protocol PaddingAbsorbing: GraphOperator {
    var input: Int { get set }
    var window: Window { get set }
}

/// A standalone activation operator that a preceding `ActivationFusing` operator can absorb.
protocol FusibleActivation: GraphOperator {
    /// The activation as an epilogue of a producer writing `producer`; nil when it cannot be.
    func epilogue(after producer: GraphTensor, tensors: [GraphTensor]) -> FusedActivation?
    /// The epilogue of a producer that already applies `current`; nil when it cannot be.
    func epilogue(following current: FusedActivation, after producer: GraphTensor, tensors: [GraphTensor]) -> FusedActivation?
}

extension FusibleActivation {
    /// Only after a producer with no activation of its own.
    func epilogue(following current: FusedActivation, after producer: GraphTensor, tensors: [GraphTensor]) -> FusedActivation? {
        current == .none ? epilogue(after: producer, tensors: tensors) : nil
    }
}

/// An operator with one input and one output tensor (an activation, a reshape, a dequantize).
protocol UnaryGraphOperator: GraphOperator {
    init(input: Int, output: Int)
    var input: Int { get }
}

extension UnaryGraphOperator {
    init(_ record: OperatorRecord) throws { self.init(input: try record.input(0), output: record.output) }

    var inputs: [Int] { [input] }

    /// The operator's arena places and element count, once input and output are checked to
    /// hold the same number of elements.
    func sameCountPlaces(_ planner: inout StepPlanner) throws -> (input: Int, output: Int, count: Int) {
        try planner.sameCount(input, output)
        return (planner.arena(input), planner.arena(output), planner.tensors[output].elementCount)
    }
}

/// A MediaPipe operator that applies a 4×4 region matrix (its second input) to its first
/// input: the attention face mesh's `TransformTensorBilinear` and `TransformLandmarks`.
protocol MatrixTransformOperator: GraphOperator {
    init(input: Int, matrix: Int, output: Int)
    var input: Int { get }
    var matrix: Int { get }
}

extension MatrixTransformOperator {
    init(_ record: OperatorRecord) throws {
        self.init(input: try record.input(0), matrix: try record.input(1), output: record.output)
    }

    var inputs: [Int] { [input, matrix] }
}
