import CKameraNNKernels

/// PAD with zeros, constant non-negative paddings, rank ≤ 4.
struct PadOperator: GraphOperator {
    static let builtinCode: Int32 = 34
    static let name = "PAD"

    var input: Int, paddings: Int, output: Int

    init(input: Int, paddings: Int, output: Int) { (self.input, self.paddings, self.output) = (input, paddings, output) }
    init(_ record: OperatorRecord) throws {
        self.init(input: try record.input(0), paddings: try record.input(1), output: record.output)
    }

    var inputs: [Int] { [input, paddings] }
    var dataInputs: [Int] { [input] }

    func plan(_ planner: inout StepPlanner) throws -> any PlannedKernel {
        let shape = planner.tensors[input].shape, outTensor = planner.tensors[output]
        guard let p = planner.tensors[paddings].ints, shape.count <= 4, p.count == 2 * shape.count, p.allSatisfy({ $0 >= 0 }) else {
            throw planner.fail("PAD needs constant non-negative paddings for a tensor of rank ≤ 4")
        }
        // The kernel works on 4-D shapes: lower ranks get leading 1s.
        let lead = 4 - shape.count
        let inShape = [Int](repeating: 1, count: lead) + shape
        let before = [Int](repeating: 0, count: lead) + (0..<shape.count).map { Int(p[2 * $0]) }
        let outShape = (0..<4).map { $0 < lead ? 1 : inShape[$0] + Int(p[2 * ($0 - lead)]) + Int(p[2 * ($0 - lead) + 1]) }
        guard outShape.reduce(1, *) == outTensor.elementCount, Array(outShape.suffix(shape.count)) == outTensor.shape else {
            throw planner.fail("PAD output \(outTensor.shape) does not match \(outShape)")
        }
        return PadKernel(
            input: planner.arena(input), inputShape: inShape.map(Int32.init), before: before.map(Int32.init),
            outputShape: outShape.map(Int32.init), output: planner.arena(output))
    }
}

struct PadKernel: PlannedKernel {
    var input: Int, inputShape: [Int32], before: [Int32], outputShape: [Int32], output: Int
    var kernelName: String { "pad" }

    func run(_ context: KernelContext) {
        knn_pad(context.arena + input, inputShape, before, outputShape, context.arena + output)
    }
}
