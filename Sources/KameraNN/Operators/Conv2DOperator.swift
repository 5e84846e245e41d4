import CKameraNNKernels

/// CONV_2D: any kernel size, stride and dilation, SAME/VALID padding. 1×1 stride-1
/// convolutions run as one GEMM over all pixels; the others as im2col into scratch and a GEMM.
struct Conv2DOperator: ActivationFusing {
    static let builtinCode: Int32 = 3
    static let name = "CONV_2D"

    var input: Int, filter: Int, bias: Int?
    var output: Int
    var window: Window
    var activation: FusedActivation

    init(input: Int, filter: Int, bias: Int?, output: Int, window: Window, activation: FusedActivation) {
        (self.input, self.filter, self.bias, self.output, self.window, self.activation) = (input, filter, bias, output, window, activation)
    }

    init(_ record: OperatorRecord) throws {
        self.init(
            input: try record.input(0), filter: try record.input(1), bias: try record.optionalInput(2),
            output: record.output, window: try record.window(stride: (1, 2), dilation: (4, 5), padding: 0),
            activation: try record.activation(field: 3))
    }

    var inputs: [Int] { [input, filter] + (bias.map { [$0] } ?? []) }
    var dataInputs: [Int] { [input] }

    func plan(_ planner: inout StepPlanner) throws -> any PlannedKernel {
        let ic = try planner.image(input).channels
        let f = planner.tensors[filter]
        guard let weights = f.floats, f.shape.count == 4, f.shape[3] == ic else {
            throw planner.fail("CONV_2D filter \(f.name) \(f.shape) does not match input channels \(ic)")
        }
        let (oc, kh, kw) = (f.shape[0], f.shape[1], f.shape[2])
        let geometry = try planner.windowGeometry(
            input: input, output: output, kernelHeight: kh, kernelWidth: kw,
            window: window, outputChannels: oc)
        let epilogue = try planner.epilogue(activation)
        let biasOffset = planner.packChannels(try planner.biasValues(bias, count: oc))
        let k = kh * kw * ic
        // Packed as blocks of 16 output channels, each [k][16] with k in im2col order.
        let weightOffset = planner.packBlocks(count: k, channels: oc) { kk, co in weights[co * k + kk] }
        if kh == 1, kw == 1, window.strideH == 1, window.strideW == 1, geometry.padTop == 0, geometry.padLeft == 0 {
            return PointwiseConvolutionKernel(
                input: geometry.input, rows: geometry.inputHeight * geometry.inputWidth,
                inputChannels: ic, weights: weightOffset, bias: biasOffset,
                outputChannels: oc, output: geometry.output, activation: epilogue)
        }
        // An input of few channels is read directly; only im2col needs scratch.
        let direct = ic <= ConvolutionKernel.directInputChannels
        if !direct { planner.requireScratch(geometry.outputHeight * geometry.outputWidth * k) }
        return ConvolutionKernel(
            geometry: geometry, weights: weightOffset, bias: biasOffset, outputChannels: oc, direct: direct,
            activation: epilogue)
    }
}

/// 1×1 stride-1 convolution: a GEMM over all pixels, rows split across threads.
struct PointwiseConvolutionKernel: PlannedKernel {
    var input: Int, rows: Int, inputChannels: Int, weights: Int, bias: Int, outputChannels: Int, output: Int
    var activation: PlannedActivation
    var kernelName: String { "conv 1x1" }

    func run(_ context: KernelContext) {
        let (k, n) = (inputChannels, outputChannels)
        nonisolated(unsafe) let act = context.activation(activation)  // holds a pointer into the shared weights
        context.parallelRows(rows, minimumPerThread: 64) { r0, r1 in
            knn_gemm(
                context.arena + input + r0 * k, r1 - r0, k, k, context.weights + weights, context.weights + bias, n,
                context.arena + output + r0 * n, n, act)
        }
    }
}

/// Any other convolution: im2col of each row range into scratch, then the GEMM; or, for an
/// input of few channels (a first layer on the image), read straight from the input
/// (`knn_conv_direct`), whose im2col rows would be too short for the GEMM to pay for the copy.
struct ConvolutionKernel: PlannedKernel {
    /// Inputs with at most this many channels are convolved directly.
    static let directInputChannels = 4
    var geometry: ConvolutionGeometry
    var weights: Int, bias: Int, outputChannels: Int
    /// Chosen when the network is compiled (only the im2col path reserves scratch).
    var direct: Bool
    var activation: PlannedActivation
    var kernelName: String { geometry.kernelName("conv") }

    func run(_ context: KernelContext) {
        let g = geometry, n = outputChannels
        let k = g.kernelHeight * g.kernelWidth * g.inputChannels
        nonisolated(unsafe) let act = context.activation(activation)  // holds a pointer into the shared weights
        if direct {
            context.parallelRows(g.outputHeight, minimumPerThread: 4) { y0, y1 in
                knn_conv_direct(
                    context.arena + g.input, Int32(g.inputHeight), Int32(g.inputWidth), Int32(g.inputChannels),
                    Int32(g.kernelHeight), Int32(g.kernelWidth), Int32(g.strideH), Int32(g.strideW),
                    Int32(g.dilationH), Int32(g.dilationW), Int32(g.padTop), Int32(g.padLeft),
                    context.weights + weights, context.weights + bias, Int32(n), context.arena + g.output,
                    Int32(y0), Int32(y1), Int32(g.outputWidth), act)
            }
            return
        }
        context.parallelRows(g.outputHeight, minimumPerThread: 4) { y0, y1 in
            let col = context.scratch + y0 * g.outputWidth * k
            knn_im2col(
                context.arena + g.input, Int32(g.inputHeight), Int32(g.inputWidth), Int32(g.inputChannels),
                Int32(g.kernelHeight), Int32(g.kernelWidth), Int32(g.strideH), Int32(g.strideW),
                Int32(g.dilationH), Int32(g.dilationW), Int32(g.padTop), Int32(g.padLeft),
                Int32(y0), Int32(y1), Int32(g.outputWidth), col)
            knn_gemm(
                col, (y1 - y0) * g.outputWidth, k, k, context.weights + weights, context.weights + bias, n,
                context.arena + g.output + y0 * g.outputWidth * n, n, act)
        }
    }
}
