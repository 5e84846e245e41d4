import CKameraNNKernels

/// ADD of two tensors of the same shape (no broadcasting: the face models need none).
struct AddOperator: ActivationFusing {
    static let builtinCode: Int32 = 0
    static let name = "ADD"

    var a: Int, b: Int
    var output: Int
    var activation: FusedActivation

    init(_ a: Int, _ b: Int, output: Int, activation: FusedActivation) {
        (self.a, self.b, self.output, self.activation) = (a, b, output, activation)
    }

    init(_ record: OperatorRecord) throws {
        self.init(try record.input(0), try record.input(1), output: record.output, activation: try record.activation(field: 0))
    }

    var inputs: [Int] { [a, b] }

    func plan(_ planner: inout StepPlanner) throws -> any PlannedKernel {
        let t = planner.tensors
        guard t[a].shape == t[b].shape, t[a].shape == t[output].shape else {
            throw planner.fail("ADD of \(t[a].shape) and \(t[b].shape): broadcasting is not supported")
        }
        let channels = t[output].shape.last ?? 1
        return AddKernel(
            a: planner.arena(a), b: planner.arena(b), output: planner.arena(output),
            pixels: t[output].elementCount / max(channels, 1), channels: channels,
            activation: try planner.epilogue(activation))
    }
}

struct AddKernel: PlannedKernel {
    var a: Int, b: Int, output: Int, pixels: Int, channels: Int
    var activation: PlannedActivation
    var kernelName: String { "add" }

    func run(_ context: KernelContext) {
        knn_add(context.arena + a, context.arena + b, context.arena + output, pixels, channels, context.activation(activation))
    }
}
