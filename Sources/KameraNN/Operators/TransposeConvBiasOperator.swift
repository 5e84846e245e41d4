import CKameraNNKernels

/// MediaPipe's custom `Convolution2DTransposeBias` (the last layer of its segmentation
/// models): a transposed convolution with a bias. Its options are TFLite's transposed
/// convolution parameters as raw bytes — padding, stride width, stride height (32-bit each).
/// Supported where the kernel equals the stride, as in those models: each input pixel fills
/// its own block of the output.
struct TransposeConvBiasOperator: ActivationFusing {
    static let builtinCode: Int32 = OperatorRegistry.customBuiltinCode
    static let customCode: String? = "Convolution2DTransposeBias"
    static let name = "Convolution2DTransposeBias"

    var input: Int, weights: Int, bias: Int, output: Int
    var strideW: Int, strideH: Int
    /// An activation after it (PP-OCR's detector head: a ReLU), fused by the compiler.
    var activation = FusedActivation.none

    init(input: Int, weights: Int, bias: Int, output: Int, strideW: Int, strideH: Int) {
        (self.input, self.weights, self.bias, self.output, self.strideW, self.strideH) = (
            input, weights, bias, output, strideW, strideH
        )
    }

    init(_ record: OperatorRecord) throws {
        self.init(
            input: try record.input(0), weights: try record.input(1), bias: try record.input(2), output: record.output,
            strideW: Int(try record.customInt32(at: 4)), strideH: Int(try record.customInt32(at: 8)))
    }

    var inputs: [Int] { [input, weights, bias] }
    var dataInputs: [Int] { [input] }

    func plan(_ planner: inout StepPlanner) throws -> any PlannedKernel {
        let (ih, iw, ic) = try planner.image(input)
        let w = planner.tensors[weights]
        guard let values = w.floats, w.shape.count == 4, w.shape[3] == ic else {
            throw planner.fail("\(Self.name) weights \(w.name) \(w.shape) must be constant [outputs, kh, kw, \(ic)]")
        }
        let (oc, kh, kw) = (w.shape[0], w.shape[1], w.shape[2])
        guard kh == strideH, kw == strideW, planner.tensors[output].shape == [1, ih * kh, iw * kw, oc] else {
            throw planner.fail(
                "\(Self.name) is supported with kernel = stride only (kernel \(kh)×\(kw), stride \(strideH)×\(strideW), "
                    + "output \(planner.tensors[output].shape))")
        }
        let biasValues = try planner.biasValues(bias, count: oc)
        // One output row of a kernel row `dy` is a GEMM of the input row (k = ic) against the
        // kw·oc columns (dx, channel) of that kernel row: the pixels of an input row land
        // kw·oc floats apart in the output row, so the GEMM writes them in place.
        let columns = kw * oc
        let biasOffset = planner.packChannels((0..<columns).map { biasValues[$0 % oc] })
        let rowWeights = (0..<kh).map { dy in
            planner.packBlocks(count: ic, channels: columns) { i, column in
                let (dx, o) = (column / oc, column % oc)
                return values[((o * kh + dy) * kw + dx) * ic + i]
            }
        }
        // The epilogue sees kw · oc columns (dx, channel): PReLU's alphas repeat per dx.
        var epilogue: PlannedActivation
        switch activation {
        case .prelu(let alpha):
            let alphas = try planner.alphaValues(alpha)
            guard alphas.count == oc else { throw planner.fail("\(Self.name): \(alphas.count) PReLU alphas for \(oc) channels") }
            epilogue = PlannedActivation(kind: KNN_ACT_PRELU, alpha: planner.packChannels((0..<columns).map { alphas[$0 % oc] }))
        case .scaled(.prelu, _, _): throw planner.fail("\(Self.name) takes no scaled PReLU")
        default: epilogue = try planner.epilogue(activation)
        }
        return TransposeConvBlocksKernel(
            input: planner.arena(input), height: ih, width: iw, channels: ic, rowWeights: rowWeights, bias: biasOffset,
            outputChannels: oc, kernelHeight: kh, kernelWidth: kw, output: planner.arena(output), activation: epilogue)
    }
}

/// Each input row becomes `kernelHeight` output rows, each one GEMM (`knn_gemm`).
struct TransposeConvBlocksKernel: PlannedKernel {
    var input: Int, height: Int, width: Int, channels: Int
    /// Packed weights of each kernel row: [channels][kernelWidth · outputChannels] in blocks of 16.
    var rowWeights: [Int]
    var bias: Int
    var outputChannels: Int, kernelHeight: Int, kernelWidth: Int, output: Int
    var activation: PlannedActivation
    var kernelName: String { "transpose conv \(kernelHeight)x\(kernelWidth)" }

    func run(_ context: KernelContext) {
        let columns = kernelWidth * outputChannels
        let outputRow = width * columns
        nonisolated(unsafe) let act = context.activation(activation)  // holds a pointer into the shared weights
        context.parallelRows(height, minimumPerThread: 4) { y0, y1 in
            for y in y0..<y1 {
                for (dy, weights) in rowWeights.enumerated() {
                    knn_gemm(
                        context.arena + input + y * width * channels, width, channels, channels, context.weights + weights,
                        context.weights + bias, columns, context.arena + output + (y * kernelHeight + dy) * outputRow,
                        columns, act)
                }
            }
        }
    }
}
