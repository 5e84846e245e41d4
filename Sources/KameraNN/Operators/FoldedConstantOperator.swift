/// An operator that only changes how a constant is stored (DEQUANTIZE of fp16 weights, DENSIFY
/// of sparse ones): the reader already widened or densified the values, so it is folded at
/// compile time and never runs.
protocol FoldedConstantOperator: UnaryGraphOperator {}

extension FoldedConstantOperator {
    func fold(_ tensors: inout [GraphTensor]) throws -> Bool {
        guard let values = tensors[input].floats else { return false }
        tensors[output].floats = values
        return true
    }

    func plan(_ planner: inout StepPlanner) throws -> any PlannedKernel {
        throw planner.fail("\(Self.name) of a non-constant tensor \(planner.tensors[input].name) is not supported")
    }
}
