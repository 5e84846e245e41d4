/// DENSIFY of a sparse constant: the reader already made it dense (`SparseTensor`), so it is
/// folded away at compile time and never runs.
struct DensifyOperator: UnaryGraphOperator {
    static let builtinCode: Int32 = 124
    static let name = "DENSIFY"

    var input: Int, output: Int

    func fold(_ tensors: inout [GraphTensor]) throws -> Bool {
        guard let values = tensors[input].floats else { return false }
        tensors[output].floats = values
        return true
    }

    func plan(_ planner: inout StepPlanner) throws -> any PlannedKernel {
        throw planner.fail("DENSIFY of a non-constant tensor \(planner.tensors[input].name) is not supported")
    }
}
