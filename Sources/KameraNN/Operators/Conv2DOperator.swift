import CKameraNNKernels

/// CONV_2D: kernels up to 9×9, any stride and dilation, SAME/VALID/explicit padding. 1×1
/// stride-1 convolutions run as one GEMM over all pixels; the others as an indirect GEMM
/// (each tap read where it lies) or, on inputs of few channels, directly.
struct Conv2DOperator: ActivationFusing, PaddingAbsorbing {
    static let builtinCode: Int32 = 3
    static let name = "CONV_2D"

    var input: Int, filter: Int, bias: Int?
    var output: Int
    var window: Window
    var activation: FusedActivation
    /// A tensor added before the activation: the ADD of a skip connection that read this
    /// convolution's result, absorbed (`NetworkCompiler`; 1×1 only). The output's shape, or
    /// fewer channels where the skip connection's were padded with zeros (the PAD absorbed too).
    var residual: Int?

    init(input: Int, filter: Int, bias: Int?, output: Int, window: Window, activation: FusedActivation) {
        (self.input, self.filter, self.bias, self.output, self.window, self.activation) = (input, filter, bias, output, window, activation)
    }

    init(_ record: OperatorRecord) throws {
        self.init(
            input: try record.input(0), filter: try record.input(1), bias: try record.optionalInput(2),
            output: record.output, window: try record.window(stride: (1, 2), dilation: (4, 5), padding: 0),
            activation: try record.activation(field: 3))
    }

    var inputs: [Int] { [input, filter] + (bias.map { [$0] } ?? []) + (residual.map { [$0] } ?? []) }
    var dataInputs: [Int] { [input] + (residual.map { [$0] } ?? []) }

    /// Whether this is a 1×1 stride-1 convolution without padding, which can take a residual.
    func isPointwise(_ tensors: [GraphTensor]) -> Bool {
        let f = tensors[filter].shape
        return f.count == 4 && f[1] == 1 && f[2] == 1 && window.strideH == 1 && window.strideW == 1
            && (window.padding == .valid || window.padding == .same)
    }

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
        if kh == 1, kw == 1, window.strideH == 1, window.strideW == 1, geometry.padTop == 0, geometry.padLeft == 0,
            geometry.outputHeight == geometry.inputHeight, geometry.outputWidth == geometry.inputWidth
        {
            var residualOffset: Int?, residualChannels = 0
            if let residual {
                let (r, o) = (planner.tensors[residual].shape, planner.tensors[output].shape)
                guard r.count == o.count, r.dropLast() == o.dropLast(), let rc = r.last, rc >= 1, rc <= oc else {
                    throw planner.fail("CONV_2D residual \(r) does not fit the output \(o)")
                }
                (residualOffset, residualChannels) = (planner.arena(residual), rc)
            }
            let sparseOffset = planner.packSparsePointwise(weights, inputs: ic, outputs: oc)
            return PointwiseConvolutionKernel(
                input: geometry.input, rows: geometry.inputHeight * geometry.inputWidth,
                inputChannels: ic, weights: sparseOffset ?? packDense(&planner, weights, k: k, outputs: oc),
                sparse: sparseOffset != nil, bias: biasOffset,
                outputChannels: oc, output: geometry.output, residual: residualOffset, residualChannels: residualChannels,
                activation: epilogue)
        }
        let weightOffset = packDense(&planner, weights, k: k, outputs: oc)
        guard residual == nil else { throw planner.fail("CONV_2D takes a residual only as a 1×1 stride-1 convolution") }
        guard kh * kw <= Int(KNN_INDIRECT_MAX_TAPS) else {
            throw planner.fail("CONV_2D kernels up to \(KNN_INDIRECT_MAX_TAPS) taps are supported, not \(kh)×\(kw)")
        }
        // Taps outside the image read this row of zeros.
        let zeros = planner.appendPacked(count: ic) { _ in 0 }
        return ConvolutionKernel(
            geometry: geometry, weights: weightOffset, bias: biasOffset, zeros: zeros, outputChannels: oc,
            direct: ic <= ConvolutionKernel.directInputChannels, activation: epilogue)
    }

    /// Blocks of 16 output channels, each `[k][16]` with k in im2col order.
    private func packDense(_ planner: inout StepPlanner, _ weights: [Float], k: Int, outputs: Int) -> Int {
        planner.packBlocks(count: k, channels: outputs) { kk, co in weights[co * k + kk] }
    }
}

/// 1×1 stride-1 convolution: a GEMM over all pixels, rows split across threads.
struct PointwiseConvolutionKernel: PlannedKernel {
    var input: Int, rows: Int, inputChannels: Int, weights: Int
    /// The weights are in `knn_sparse_gemm`'s layout (`SparsePointwiseWeights`), not dense blocks.
    var sparse = false
    var bias: Int, outputChannels: Int, output: Int
    /// Where the residual added before the activation lies, `residualChannels` values a row.
    var residual: Int?
    var residualChannels = 0
    var activation: PlannedActivation
    var kernelName: String { (residual == nil ? "conv 1x1" : "conv 1x1 + add") + (sparse ? " (sparse)" : "") }

    func run(_ context: KernelContext) {
        let (k, n) = (inputChannels, outputChannels)
        nonisolated(unsafe) let act = context.activation(activation)  // holds a pointer into the shared weights
        context.parallelRows(rows, minimumPerThread: 64) { r0, r1 in
            let (a, w, b) = (context.arena + input + r0 * k, context.weights + weights, context.weights + bias)
            if sparse {
                let (rc, out) = (residualChannels, context.arena + output + r0 * n)
                let residualRows = residual.map { context.arena + $0 + r0 * rc }
                knn_sparse_gemm(a, r1 - r0, k, k, w, SparsePointwiseWeights.channelsPerPass, b, n, out, n, residualRows, rc, act)
            } else if let residual {
                let (rc, out) = (residualChannels, context.arena + output + r0 * n)
                knn_gemm_residual(a, r1 - r0, k, k, w, b, n, out, n, context.arena + residual + r0 * rc, rc, act)
            } else {
                knn_gemm(a, r1 - r0, k, k, w, b, n, context.arena + output + r0 * n, n, act)
            }
        }
    }
}

/// Any other convolution: an indirect GEMM over output pixels (`knn_conv_indirect`); or, for
/// an input of few channels (a first layer on the image), `knn_conv_direct`, which keeps
/// several output pixels per weight load because a tap's 3 channels are too short a loop.
struct ConvolutionKernel: PlannedKernel {
    /// Inputs with at most this many channels are convolved directly.
    static let directInputChannels = 4
    var geometry: ConvolutionGeometry
    var weights: Int, bias: Int, zeros: Int, outputChannels: Int
    /// Chosen when the network is compiled.
    var direct: Bool
    var activation: PlannedActivation
    var kernelName: String { geometry.kernelName("conv") }

    func run(_ context: KernelContext) {
        let g = geometry, n = outputChannels
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
        context.parallelRows(g.outputHeight * g.outputWidth, minimumPerThread: 64) { p0, p1 in
            knn_conv_indirect(
                context.arena + g.input, Int32(g.inputHeight), Int32(g.inputWidth), Int32(g.inputChannels),
                Int32(g.kernelHeight), Int32(g.kernelWidth), Int32(g.strideH), Int32(g.strideW),
                Int32(g.dilationH), Int32(g.dilationW), Int32(g.padTop), Int32(g.padLeft),
                context.weights + weights, context.weights + bias, n, context.arena + g.output, Int32(g.outputWidth),
                p0, p1, context.weights + zeros, act)
        }
    }
}
