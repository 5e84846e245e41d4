import CKameraNNKernels

/// DEPTHWISE_CONV_2D with depth multiplier 1 (what the face models use); 3×3 has a fast
/// interior path in the kernel.
struct DepthwiseConv2DOperator: ActivationFusing, PaddingAbsorbing {
    static let builtinCode: Int32 = 4
    static let name = "DEPTHWISE_CONV_2D"

    var input: Int, filter: Int, bias: Int?
    var output: Int
    var window: Window
    var depthMultiplier: Int
    var activation: FusedActivation

    init(input: Int, filter: Int, bias: Int?, output: Int, window: Window, depthMultiplier: Int, activation: FusedActivation) {
        (self.input, self.filter, self.bias, self.output) = (input, filter, bias, output)
        (self.window, self.depthMultiplier, self.activation) = (window, depthMultiplier, activation)
    }

    init(_ record: OperatorRecord) throws {
        self.init(
            input: try record.input(0), filter: try record.input(1), bias: try record.optionalInput(2),
            output: record.output, window: try record.window(stride: (1, 2), dilation: (5, 6), padding: 0),
            depthMultiplier: try record.int(3, default: 1), activation: try record.activation(field: 4))
    }

    var inputs: [Int] { [input, filter] + (bias.map { [$0] } ?? []) }
    var dataInputs: [Int] { [input] }

    func plan(_ planner: inout StepPlanner) throws -> any PlannedKernel {
        let ic = try planner.image(input).channels
        let f = planner.tensors[filter]
        guard depthMultiplier == 1 || ic * depthMultiplier == f.shape.last, let weights = f.floats, f.shape.count == 4,
            f.shape[0] == 1, f.shape[3] == ic
        else {
            throw planner.fail("DEPTHWISE_CONV_2D \(f.name) \(f.shape): only depth multiplier 1 is supported")
        }
        let (kh, kw) = (f.shape[1], f.shape[2])
        let geometry = try planner.windowGeometry(
            input: input, output: output, kernelHeight: kh, kernelWidth: kw,
            window: window, outputChannels: ic)
        let epilogue = try planner.epilogue(activation)
        let biasOffset = planner.packChannels(try planner.biasValues(bias, count: ic))
        // [kh][kw][channels rounded up to 16], so each tap loads whole channel blocks.
        let cpad = (ic + 15) / 16 * 16
        let weightOffset = planner.appendPacked(count: kh * kw * cpad) { i in
            let (tap, c) = (i / cpad, i % cpad)
            return c < ic ? weights[tap * ic + c] : 0
        }
        return DepthwiseKernel(geometry: geometry, weights: weightOffset, bias: biasOffset, activation: epilogue)
    }
}

/// Depthwise convolution, output rows split across threads.
struct DepthwiseKernel: PlannedKernel {
    var geometry: ConvolutionGeometry
    var weights: Int, bias: Int
    var activation: PlannedActivation
    var kernelName: String { geometry.kernelName("depthwise") }

    func run(_ context: KernelContext) {
        let g = geometry
        nonisolated(unsafe) let act = context.activation(activation)  // holds a pointer into the shared weights
        context.parallelRows(g.outputHeight, minimumPerThread: 4) { y0, y1 in
            knn_depthwise(
                context.arena + g.input, Int32(g.inputHeight), Int32(g.inputWidth), Int32(g.inputChannels),
                context.weights + weights, context.weights + bias, Int32(g.kernelHeight), Int32(g.kernelWidth),
                Int32(g.strideH), Int32(g.strideW), Int32(g.dilationH), Int32(g.dilationW),
                Int32(g.padTop), Int32(g.padLeft), context.arena + g.output, Int32(y0), Int32(y1),
                Int32(g.outputWidth), act)
        }
    }
}
