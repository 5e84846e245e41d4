import CKameraNNKernels

/// MAX_POOL_2D and AVERAGE_POOL_2D: one operator over a window, padded cells ignored (TFLite's
/// rule for both).
struct Pool2DOperator<Kind: PoolKind>: GraphOperator {
    static var builtinCode: Int32 { Kind.builtinCode }
    static var name: String { Kind.name }

    var input: Int, output: Int
    var filterH: Int, filterW: Int
    var window: Window
    var activation: FusedActivation

    init(input: Int, output: Int, filterH: Int, filterW: Int, window: Window, activation: FusedActivation) {
        (self.input, self.output, self.filterH, self.filterW, self.window, self.activation) = (
            input, output, filterH, filterW, window, activation
        )
    }

    init(_ record: OperatorRecord) throws {
        self.init(
            input: try record.input(0), output: record.output, filterH: try record.int(4, default: 1),
            filterW: try record.int(3, default: 1), window: try record.window(stride: (1, 2), dilation: nil, padding: 0),
            activation: try record.activation(field: 5))
    }

    var inputs: [Int] { [input] }

    func plan(_ planner: inout StepPlanner) throws -> any PlannedKernel {
        let channels = try planner.image(input).channels
        return PoolKernel(
            geometry: try planner.windowGeometry(
                input: input, output: output, kernelHeight: filterH, kernelWidth: filterW, window: window, outputChannels: channels),
            average: Kind.averages, activation: try planner.epilogue(activation))
    }
}

/// Which pooling a `Pool2DOperator` is.
protocol PoolKind: Sendable {
    static var builtinCode: Int32 { get }
    static var name: String { get }
    static var averages: Bool { get }
}

enum MaxPooling: PoolKind {
    static let builtinCode: Int32 = 17
    static let name = "MAX_POOL_2D"
    static let averages = false
}

enum AveragePooling: PoolKind {
    static let builtinCode: Int32 = 1
    static let name = "AVERAGE_POOL_2D"
    static let averages = true
}

typealias MaxPool2DOperator = Pool2DOperator<MaxPooling>
typealias AveragePool2DOperator = Pool2DOperator<AveragePooling>

struct PoolKernel: PlannedKernel {
    var geometry: ConvolutionGeometry
    var average: Bool
    var activation: PlannedActivation
    var kernelName: String { geometry.kernelName(average ? "average pool" : "max pool") }

    func run(_ context: KernelContext) {
        let g = geometry
        knn_pool(
            context.arena + g.input, Int32(g.inputHeight), Int32(g.inputWidth), Int32(g.inputChannels),
            Int32(g.kernelHeight), Int32(g.kernelWidth), Int32(g.strideH), Int32(g.strideW), Int32(g.padTop), Int32(g.padLeft),
            average ? 1 : 0, context.arena + g.output, 0, Int32(g.outputHeight), Int32(g.outputWidth), context.activation(activation))
    }
}
