import CKameraNNKernels

/// AVERAGE_POOL_2D; padded cells are not counted, as in TFLite.
struct AveragePool2DOperator: GraphOperator {
    static let builtinCode: Int32 = 1
    static let name = "AVERAGE_POOL_2D"

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
        return AveragePoolKernel(
            geometry: try planner.windowGeometry(
                input: input, output: output, kernelHeight: filterH, kernelWidth: filterW, window: window,
                outputChannels: channels),
            activation: try planner.epilogue(activation))
    }
}

struct AveragePoolKernel: PlannedKernel {
    var geometry: ConvolutionGeometry
    var activation: PlannedActivation
    var kernelName: String { geometry.kernelName("average pool") }

    func run(_ context: KernelContext) {
        let g = geometry
        knn_average_pool(
            context.arena + g.input, Int32(g.inputHeight), Int32(g.inputWidth), Int32(g.inputChannels),
            Int32(g.kernelHeight), Int32(g.kernelWidth), Int32(g.strideH), Int32(g.strideW),
            Int32(g.padTop), Int32(g.padLeft), context.arena + g.output, 0, Int32(g.outputHeight),
            Int32(g.outputWidth), context.activation(activation))
    }
}
