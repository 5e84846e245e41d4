import KameraCore

/// A model ready to run: kernel steps, packed weights and the arena layout. Built once per
/// model; sessions only allocate their arena from it.
struct CompiledNetwork: Sendable {
    var steps: [PlannedStep]
    var weights: FloatStorage
    var arenaSize: Int
    var scratchSize: Int
    var inputs: [TensorSlot]
    var outputs: [TensorSlot]
    /// Constant tensors that ops read as data (not weights): copied into the arena once.
    var constants: [(offset: Int, values: [Float])]
}

/// A graph input or output: its name, shape and place in the arena.
struct TensorSlot: Sendable {
    var name: String
    var shape: [Int]
    var offset: Int
    var count: Int { shape.reduce(1, *) }
}

/// Turns a `ModelGraph` into a `CompiledNetwork`: folds fp16 DEQUANTIZE of constants into
/// fp32 weights, fuses activations into the op before them, validates every shape, packs
/// weights into the kernels' channel blocks and plans the arena.
struct NetworkCompiler {
    private var tensors: [GraphTensor]
    private let graph: ModelGraph
    private let path: String
    private var packed: [Float] = []

    init(graph: ModelGraph, path: String) {
        self.graph = graph
        tensors = graph.tensors
        self.path = path
    }

    private func fail(_ reason: String) -> KameraError { .invalidModel(path: path, reason: reason) }

    /// An op after folding and fusion: the graph op, the tensor it finally writes and the
    /// activation fused into it.
    private struct Scheduled {
        var operation: GraphOperation
        var output: Int
        var activation: PlannedActivation?
        var fusedAlpha: Int?
    }

    mutating func compile() throws -> CompiledNetwork {
        // 1. Constant folding: fp16 weights are stored behind DEQUANTIZE ops.
        var remaining: [GraphOperation] = []
        for op in graph.operations {
            if case .dequantize(let input, let output) = op {
                guard let values = tensors[input].floats else {
                    throw fail("DEQUANTIZE of a non-constant tensor \(tensors[input].name) is not supported")
                }
                tensors[output].floats = values
                continue
            }
            remaining.append(op)
        }

        // 2. Activation fusion: an op whose only consumer is RELU/RELU6/PRELU writes the
        //    activation's output directly and applies it in its epilogue.
        var consumers: [Int: Int] = [:]
        for op in remaining { for t in op.inputs { consumers[t, default: 0] += 1 } }
        for t in graph.outputs { consumers[t, default: 0] += 1 }
        var scheduled: [Scheduled] = []
        var fusedAway = Set<Int>()
        for (i, op) in remaining.enumerated() where !fusedAway.contains(i) {
            var entry = Scheduled(operation: op, output: op.output, activation: nil, fusedAlpha: nil)
            let fusible: Bool = switch op {
            case .conv2D(_, _, _, _, _, .none), .depthwiseConv2D(_, _, _, _, _, _, .none), .add(_, _, _, .none): true
            default: false
            }
            if fusible, consumers[op.output] == 1,
               let j = remaining.indices.first(where: { $0 > i && remaining[$0].inputs.first == op.output }) {
                switch remaining[j] {
                case .relu(_, let out):
                    entry.output = out; entry.activation = PlannedActivation(.relu); fusedAway.insert(j)
                case .relu6(_, let out):
                    entry.output = out; entry.activation = PlannedActivation(.relu6); fusedAway.insert(j)
                case .prelu(_, let alpha, let out)
                    where tensors[alpha].floats != nil && tensors[alpha].elementCount == tensors[op.output].shape.last:
                    entry.output = out; entry.fusedAlpha = alpha; fusedAway.insert(j)
                default: break
                }
            }
            scheduled.append(entry)
        }

        // 3. Lifetimes and the arena plan.
        var first: [Int: Int] = [:], last: [Int: Int] = [:]
        var dataConstants = Set<Int>()
        for t in graph.inputs { first[t] = -1; last[t] = -1 }
        for (s, entry) in scheduled.enumerated() {
            for t in dataInputs(entry.operation) {
                if tensors[t].floats != nil {
                    dataConstants.insert(t)
                } else if first[t] == nil {
                    throw fail("tensor \(tensors[t].name) is read before it is written")
                }
                last[t] = s
            }
            first[entry.output] = first[entry.output] ?? s
            last[entry.output] = max(last[entry.output] ?? s, s)
        }
        for t in dataConstants { first[t] = -1; last[t] = Int.max }
        for t in graph.outputs {
            guard first[t] != nil else { throw fail("output \(tensors[t].name) is never written") }
            last[t] = Int.max
        }
        for t in first.keys {
            guard tensors[t].elementType == .float32 || tensors[t].floats != nil else {
                throw fail("tensor \(tensors[t].name) is not float32")
            }
        }
        let plan = MemoryPlan(first.keys.map {
            MemoryPlan.Request(tensor: $0, size: tensors[$0].elementCount, firstStep: first[$0]!, lastStep: last[$0]!)
        })
        func at(_ t: Int) -> Int { plan.offsets[t]! }

        // 4. Steps, with shapes validated and weights packed.
        var steps: [PlannedStep] = []
        var scratch = 0
        for entry in scheduled {
            let alphaOffset = try entry.fusedAlpha.map { try packChannels(tensors[$0].floats!) }
            func activation(_ fused: FusedActivation) -> PlannedActivation {
                if let alphaOffset { return PlannedActivation(kind: 4, alpha: alphaOffset) }
                return entry.activation ?? PlannedActivation(fused)
            }
            let out = entry.output
            switch entry.operation {
            case .conv2D(let input, let filter, let bias, _, let window, let fused):
                let (ih, iw, ic) = try image(input)
                let f = tensors[filter]
                guard let weights = f.floats, f.shape.count == 4, f.shape[3] == ic else {
                    throw fail("CONV_2D filter \(f.name) \(f.shape) does not match input channels \(ic)")
                }
                let (oc, kh, kw) = (f.shape[0], f.shape[1], f.shape[2])
                let geometry = try windowGeometry(input: input, output: out, arena: (at(input), at(out)), ih: ih, iw: iw, ic: ic, kh: kh, kw: kw,
                                                  window: window, outputChannels: oc)
                let biasOffset = try packChannels(try biasValues(bias, count: oc))
                let k = kh * kw * ic
                // Packed as blocks of 16 output channels, each [k][16] with k in im2col order.
                let weightOffset = packBlocks(count: k, channels: oc) { kk, co in weights[co * k + kk] }
                if kh == 1, kw == 1, window.strideH == 1, window.strideW == 1, geometry.padTop == 0, geometry.padLeft == 0 {
                    steps.append(.pointwise(input: at(input), rows: ih * iw, inputChannels: ic, weights: weightOffset,
                                            bias: biasOffset, outputChannels: oc, output: at(out), activation: activation(fused)))
                } else {
                    scratch = max(scratch, geometry.outputHeight * geometry.outputWidth * k + MemoryPlan.slack)
                    steps.append(.convolution(geometry, weights: weightOffset, bias: biasOffset, outputChannels: oc,
                                              activation: activation(fused)))
                }
            case .depthwiseConv2D(let input, let filter, let bias, _, let window, let multiplier, let fused):
                let (ih, iw, ic) = try image(input)
                let f = tensors[filter]
                guard multiplier == 1 || ic * multiplier == f.shape.last, let weights = f.floats, f.shape.count == 4,
                      f.shape[0] == 1, f.shape[3] == ic else {
                    throw fail("DEPTHWISE_CONV_2D \(f.name) \(f.shape): only depth multiplier 1 is supported")
                }
                let (kh, kw) = (f.shape[1], f.shape[2])
                let geometry = try windowGeometry(input: input, output: out, arena: (at(input), at(out)), ih: ih, iw: iw, ic: ic, kh: kh, kw: kw,
                                                  window: window, outputChannels: ic)
                let biasOffset = try packChannels(try biasValues(bias, count: ic))
                let cpad = (ic + 15) / 16 * 16
                let weightOffset = appendPacked(count: kh * kw * cpad) { i in
                    let (tap, c) = (i / cpad, i % cpad)
                    return c < ic ? weights[tap * ic + c] : 0
                }
                steps.append(.depthwise(geometry, weights: weightOffset, bias: biasOffset, activation: activation(fused)))
            case .maxPool2D(let input, _, let kh, let kw, let window, let fused):
                let (ih, iw, ic) = try image(input)
                let geometry = try windowGeometry(input: input, output: out, arena: (at(input), at(out)), ih: ih, iw: iw, ic: ic, kh: kh, kw: kw,
                                                  window: window, outputChannels: ic)
                steps.append(.maxPool(geometry, activation: activation(fused)))
            case .add(let a, let b, _, let fused):
                guard tensors[a].shape == tensors[b].shape, tensors[a].shape == tensors[out].shape else {
                    throw fail("ADD of \(tensors[a].shape) and \(tensors[b].shape): broadcasting is not supported")
                }
                let channels = tensors[out].shape.last ?? 1
                steps.append(.add(at(a), at(b), output: at(out), pixels: tensors[out].elementCount / max(channels, 1),
                                  channels: channels, activation: activation(fused)))
            case .relu(let input, _), .relu6(let input, _):
                try sameCount(input, out)
                let kind: Int32 = if case .relu = entry.operation { 1 } else { 2 }
                steps.append(.activate(input: at(input), output: at(out), pixels: tensors[out].elementCount, channels: 1,
                                       activation: PlannedActivation(kind: kind, alpha: nil)))
            case .prelu(let input, let alpha, _):
                try sameCount(input, out)
                let channels = tensors[input].shape.last ?? 1
                guard let values = tensors[alpha].floats, values.count == channels else {
                    throw fail("PRELU alpha \(tensors[alpha].shape) must hold one value per channel")
                }
                steps.append(.activate(input: at(input), output: at(out), pixels: tensors[input].elementCount / channels,
                                       channels: channels, activation: PlannedActivation(kind: 4, alpha: try packChannels(values))))
            case .logistic(let input, _):
                try sameCount(input, out)
                steps.append(.logistic(input: at(input), output: at(out), count: tensors[out].elementCount))
            case .reshape(let input, _):
                try sameCount(input, out)
                steps.append(.copy(input: at(input), output: at(out), count: tensors[out].elementCount))
            case .pad(let input, let paddings, _):
                let shape = tensors[input].shape
                guard let p = tensors[paddings].ints, shape.count <= 4, p.count == 2 * shape.count, p.allSatisfy({ $0 >= 0 }) else {
                    throw fail("PAD needs constant non-negative paddings for a tensor of rank ≤ 4")
                }
                let lead = 4 - shape.count
                let inShape = [Int](repeating: 1, count: lead) + shape
                let before = [Int](repeating: 0, count: lead) + (0..<shape.count).map { Int(p[2 * $0]) }
                let outShape = (0..<4).map { $0 < lead ? 1 : inShape[$0] + Int(p[2 * ($0 - lead)]) + Int(p[2 * ($0 - lead) + 1]) }
                guard outShape.reduce(1, *) == tensors[out].elementCount, Array(outShape.suffix(shape.count)) == tensors[out].shape else {
                    throw fail("PAD output \(tensors[out].shape) does not match \(outShape)")
                }
                steps.append(.pad(input: at(input), inputShape: inShape.map(Int32.init), before: before.map(Int32.init),
                                  outputShape: outShape.map(Int32.init), output: at(out)))
            case .concatenation(let inputs, _, let axis, let fused):
                guard fused == .none else { throw fail("CONCATENATION with a fused activation is not supported") }
                let outShape = tensors[out].shape
                let rank = outShape.count
                let a = axis < 0 ? axis + rank : axis
                guard a >= 0, a < rank else { throw fail("CONCATENATION axis \(axis) out of range") }
                var total = 0
                for t in inputs {
                    let s = tensors[t].shape
                    guard s.count == rank, (0..<rank).allSatisfy({ $0 == a || s[$0] == outShape[$0] }) else {
                        throw fail("CONCATENATION input \(s) does not match output \(outShape)")
                    }
                    total += s[a]
                }
                guard total == outShape[a] else { throw fail("CONCATENATION sizes do not add up to \(outShape)") }
                let outer = outShape[..<a].reduce(1, *)
                steps.append(.concatenate(inputs: inputs.map { (at($0), tensors[$0].shape[a...].reduce(1, *)) },
                                          outer: outer, output: at(out)))
            case .resizeBilinear(let input, _, let alignCorners, let halfPixelCenters):
                let (ih, iw, ic) = try image(input)
                let (oh, ow, oc) = try image(out)
                guard oc == ic else { throw fail("RESIZE_BILINEAR changes channels") }
                steps.append(.resizeBilinear(input: at(input), inputHeight: ih, inputWidth: iw, channels: ic,
                                             output: at(out), outputHeight: oh, outputWidth: ow,
                                             alignCorners: alignCorners, halfPixelCenters: halfPixelCenters))
            case .dequantize:
                break // folded above
            }
        }

        let storage = FloatStorage(count: packed.count + MemoryPlan.slack)
        storage.pointer.update(from: packed, count: packed.count)
        func slot(_ t: Int) -> TensorSlot { TensorSlot(name: tensors[t].name, shape: tensors[t].shape, offset: at(t)) }
        return CompiledNetwork(
            steps: steps, weights: storage, arenaSize: plan.arenaSize, scratchSize: scratch,
            inputs: graph.inputs.map(slot), outputs: graph.outputs.map(slot),
            constants: dataConstants.map { (at($0), tensors[$0].floats!) })
    }

    /// Inputs an op reads as data (not weights, biases, alphas or shape tensors).
    private func dataInputs(_ op: GraphOperation) -> [Int] {
        switch op {
        case .conv2D(let i, _, _, _, _, _), .depthwiseConv2D(let i, _, _, _, _, _, _), .prelu(let i, _, _), .pad(let i, _, _):
            [i]
        default: op.inputs
        }
    }

    private func image(_ t: Int) throws -> (Int, Int, Int) {
        let s = tensors[t].shape
        guard s.count == 4, s[0] == 1 else { throw fail("tensor \(tensors[t].name) \(s) is not a single NHWC image") }
        return (s[1], s[2], s[3])
    }

    private func sameCount(_ a: Int, _ b: Int) throws {
        guard tensors[a].elementCount == tensors[b].elementCount else {
            throw fail("\(tensors[a].name) \(tensors[a].shape) and \(tensors[b].name) \(tensors[b].shape) differ in size")
        }
    }

    private func biasValues(_ bias: Int?, count: Int) throws -> [Float] {
        guard let bias else { return [Float](repeating: 0, count: count) }
        guard let values = tensors[bias].floats, values.count == count else {
            throw fail("bias \(tensors[bias].name) must be constant with \(count) values")
        }
        return values
    }

    /// Output size and padding by TFLite's rules, checked against the declared output shape.
    private func windowGeometry(input: Int, output: Int, arena: (input: Int, output: Int), ih: Int, iw: Int, ic: Int, kh: Int, kw: Int,
                                window: Window, outputChannels: Int) throws -> ConvolutionGeometry {
        let effH = (kh - 1) * window.dilationH + 1, effW = (kw - 1) * window.dilationW + 1
        let oh: Int, ow: Int
        switch window.padding {
        case .same: oh = (ih + window.strideH - 1) / window.strideH; ow = (iw + window.strideW - 1) / window.strideW
        case .valid: oh = (ih - effH + window.strideH) / window.strideH; ow = (iw - effW + window.strideW) / window.strideW
        }
        guard oh > 0, ow > 0, tensors[output].shape == [1, oh, ow, outputChannels] else {
            throw fail("\(tensors[output].name) is \(tensors[output].shape), expected \([1, oh, ow, outputChannels])")
        }
        let padH = window.padding == .same ? max((oh - 1) * window.strideH + effH - ih, 0) : 0
        let padW = window.padding == .same ? max((ow - 1) * window.strideW + effW - iw, 0) : 0
        return ConvolutionGeometry(
            input: arena.input, inputHeight: ih, inputWidth: iw, inputChannels: ic,
            output: arena.output, outputHeight: oh, outputWidth: ow, kernelHeight: kh, kernelWidth: kw,
            strideH: window.strideH, strideW: window.strideW, dilationH: window.dilationH, dilationW: window.dilationW,
            padTop: padH / 2, padLeft: padW / 2)
    }

    /// Appends `count` values, starting on a 64-byte boundary; returns their offset.
    private mutating func appendPacked(count: Int, _ value: (Int) -> Float) -> Int {
        while packed.count % 16 != 0 { packed.append(0) }
        let offset = packed.count
        packed.reserveCapacity(packed.count + count)
        for i in 0..<count { packed.append(value(i)) }
        return offset
    }

    /// A per-channel vector padded to whole 16-lane blocks.
    private mutating func packChannels(_ values: [Float]) throws -> Int {
        appendPacked(count: (values.count + 15) / 16 * 16) { $0 < values.count ? values[$0] : 0 }
    }

    /// `[k][channels]` values as blocks of 16 channels, each block `[k][16]`.
    private mutating func packBlocks(count k: Int, channels: Int, _ value: (Int, Int) -> Float) -> Int {
        let blocks = (channels + 15) / 16
        return appendPacked(count: blocks * k * 16) { i in
            let block = i / (k * 16), rest = i % (k * 16)
            let (kk, lane) = (rest / 16, rest % 16)
            let channel = block * 16 + lane
            return channel < channels ? value(kk, channel) : 0
        }
    }
}

