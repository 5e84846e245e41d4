/// DEQUANTIZE of constant fp16 weights to fp32: folded at compile time (the values were
/// widened when read), so it never runs.
struct DequantizeOperator: UnaryGraphOperator {
    static let builtinCode: Int32 = 6
    static let name = "DEQUANTIZE"

    var input: Int, output: Int

    func fold(_ tensors: inout [GraphTensor]) throws -> Bool {
        guard let values = tensors[input].floats else { return false }
        tensors[output].floats = values
        return true
    }

    func plan(_ planner: inout StepPlanner) throws -> any PlannedKernel {
        throw planner.fail("DEQUANTIZE of a non-constant tensor \(planner.tensors[input].name) is not supported")
    }
}
