/// CONCATENATION along any axis (negative counts from the end).
struct ConcatenationOperator: GraphOperator {
    static let builtinCode: Int32 = 2
    static let name = "CONCATENATION"

    var inputs: [Int]
    var output: Int
    var axis: Int
    var activation: FusedActivation

    init(inputs: [Int], output: Int, axis: Int, activation: FusedActivation) {
        (self.inputs, self.output, self.axis, self.activation) = (inputs, output, axis, activation)
    }

    init(_ record: OperatorRecord) throws {
        self.init(
            inputs: try record.allInputs(), output: record.output, axis: try record.int(0),
            activation: try record.activation(field: 1))
    }

    func plan(_ planner: inout StepPlanner) throws -> any PlannedKernel {
        guard activation == .none else { throw planner.fail("CONCATENATION with a fused activation is not supported") }
        let outShape = planner.tensors[output].shape
        let rank = outShape.count
        let a = axis < 0 ? axis + rank : axis
        guard a >= 0, a < rank else { throw planner.fail("CONCATENATION axis \(axis) out of range") }
        var total = 0
        for t in inputs {
            let s = planner.tensors[t].shape
            guard s.count == rank, (0..<rank).allSatisfy({ $0 == a || s[$0] == outShape[$0] }) else {
                throw planner.fail("CONCATENATION input \(s) does not match output \(outShape)")
            }
            total += s[a]
        }
        guard total == outShape[a] else { throw planner.fail("CONCATENATION sizes do not add up to \(outShape)") }
        // Each of the `outer` slices is the inputs' inner blocks one after another.
        return ConcatenationKernel(
            inputs: inputs.map { (planner.arena($0), planner.tensors[$0].shape[a...].reduce(1, *)) },
            outer: outShape[..<a].reduce(1, *), output: planner.arena(output))
    }
}

struct ConcatenationKernel: PlannedKernel {
    var inputs: [(offset: Int, inner: Int)]
    var outer: Int, output: Int
    var kernelName: String { "concat" }

    func run(_ context: KernelContext) {
        var destination = context.arena + output
        for o in 0..<outer {
            for (offset, inner) in inputs {
                destination.update(from: context.arena + offset + o * inner, count: inner)
                destination += inner
            }
        }
    }
}
