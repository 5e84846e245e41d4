import CKameraNNKernels

/// MUL of two tensors of the same shape, or of an image by one factor per channel
/// (`[1, 1, 1, C]`: the squeeze-and-excitation gates of the segmentation models).
struct MulOperator: ActivationFusing {
    static let builtinCode: Int32 = 18
    static let name = "MUL"

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
        // The gate may come first or second.
        let (image, gate) = t[a].elementCount >= t[b].elementCount ? (a, b) : (b, a)
        let channels = t[image].shape.last ?? 1
        let perChannel = t[gate].shape != t[image].shape
        guard t[image].shape == t[output].shape,
            !perChannel || (t[gate].elementCount == channels && t[gate].shape.last == channels)
        else {
            throw planner.fail("MUL of \(t[a].shape) and \(t[b].shape): only equal shapes or one factor per channel")
        }
        return MulKernel(
            a: planner.arena(image), b: planner.arena(gate), output: planner.arena(output),
            pixels: t[output].elementCount / max(channels, 1), channels: channels, perChannel: perChannel,
            activation: try planner.epilogue(activation))
    }
}

struct MulKernel: PlannedKernel {
    var a: Int, b: Int, output: Int, pixels: Int, channels: Int, perChannel: Bool
    var activation: PlannedActivation
    var kernelName: String { perChannel ? "mul per channel" : "mul" }

    func run(_ context: KernelContext) {
        knn_mul(
            context.arena + a, context.arena + b, context.arena + output, pixels, channels, perChannel ? 1 : 0,
            context.activation(activation))
    }
}
