import CKameraNNKernels

/// ADD and MUL of two tensors of the same shape; MUL also of an image by one factor per
/// channel (`[1, 1, 1, C]`, in either position: the squeeze-and-excitation gates of the
/// segmentation models) or by one factor for everything (the attention face mesh scales its
/// landmarks to its feature map's size). Activations fuse into both.
struct ElementwiseOperator<Kind: ElementwiseKind>: ActivationFusing {
    static var builtinCode: Int32 { Kind.builtinCode }
    static var name: String { Kind.name }

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
        let (image, other) = t[a].elementCount >= t[b].elementCount ? (a, b) : (b, a)
        if Kind.broadcastsChannels, t[other].elementCount == 1, t[image].shape == t[output].shape, activation == .none {
            // One factor: the data as single-channel pixels, each times the same value.
            return ElementwiseKernel<Kind>(
                a: planner.arena(image), b: planner.arena(other), output: planner.arena(output),
                pixels: t[output].elementCount, channels: 1, perChannel: true, activation: try planner.epilogue(.none))
        }
        let channels = t[image].shape.last ?? 1
        let perChannel = t[other].shape != t[image].shape
        guard t[image].shape == t[output].shape,
            !perChannel || (Kind.broadcastsChannels && t[other].elementCount == channels && t[other].shape.last == channels)
        else {
            throw planner.fail(
                "\(Self.name) of \(t[a].shape) and \(t[b].shape): broadcasting is not supported"
                    + (Kind.broadcastsChannels ? " beyond one factor per channel" : ""))
        }
        return ElementwiseKernel<Kind>(
            a: planner.arena(image), b: planner.arena(other), output: planner.arena(output),
            pixels: t[output].elementCount / max(channels, 1), channels: channels, perChannel: perChannel,
            activation: try planner.epilogue(activation))
    }
}

/// Which elementwise operation an `ElementwiseOperator` is, and its kernel.
protocol ElementwiseKind: Sendable {
    static var builtinCode: Int32 { get }
    static var name: String { get }
    /// Whether the second operand may be one value per channel (MUL's kernel takes it).
    static var broadcastsChannels: Bool { get }
}

enum Addition: ElementwiseKind {
    static let builtinCode: Int32 = 0
    static let name = "ADD"
    static let broadcastsChannels = false
}

enum Multiplication: ElementwiseKind {
    static let builtinCode: Int32 = 18
    static let name = "MUL"
    static let broadcastsChannels = true
}

typealias AddOperator = ElementwiseOperator<Addition>
typealias MulOperator = ElementwiseOperator<Multiplication>

struct ElementwiseKernel<Kind: ElementwiseKind>: PlannedKernel {
    var a: Int, b: Int, output: Int, pixels: Int, channels: Int, perChannel: Bool
    var activation: PlannedActivation
    var kernelName: String { Kind.name.lowercased() + (perChannel ? " per channel" : "") }

    func run(_ context: KernelContext) {
        let (x, y, out) = (context.arena + a, context.arena + b, context.arena + output)
        if Kind.broadcastsChannels {
            knn_mul(x, y, out, pixels, channels, perChannel ? 1 : 0, context.activation(activation))
        } else {
            knn_add(x, y, out, pixels, channels, context.activation(activation))
        }
    }
}
