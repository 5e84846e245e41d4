import KameraCore

/// Turns an ONNX graph (NCHW, symbolic sizes) into KameraNN's graph (NHWC, every shape known)
/// for one input size, so the compiler, memory planner and kernels are the ones the TFLite
/// models use. Constant nodes and constant arithmetic are evaluated here; weights are
/// re-laid out (OIHW → OHWI, depthwise → 1HWO); BatchNormalization, arithmetic with a
/// constant, Clip and HardSigmoid become one per-channel affine step each.
///
/// The operators are the ones PP-OCR's detector needs; any other is refused by name.
struct ONNXGraphImporter {
    private let model: ONNXModel
    private let path: String
    private var tensors: [GraphTensor] = []
    private var operations: [any GraphOperator] = []
    /// ONNX name → the graph tensor holding it and its ONNX dims (NCHW for images).
    private var activations: [String: (index: Int, dims: [Int])] = [:]
    /// ONNX name → constant value (initializers, Constant nodes, folded arithmetic).
    private var constants: [String: ONNXModel.Tensor]
    /// ONNX name → the nodes reading it (−1 for a graph output), to fuse only what nothing
    /// else reads.
    private var readers: [String: [Int]] = [:]
    /// Nodes already carried out by a fusion.
    private var fused: Set<Int> = []
    /// Convolutions' outputs → their filter and bias tensors, whose weights a following
    /// per-channel scale or shift is folded into.
    private var convolutions: [String: (filter: Int, bias: Int, depthwise: Bool)] = [:]

    private init(model: ONNXModel, path: String) {
        (self.model, self.path, constants) = (model, path, model.initializers)
    }

    /// A graph split where its image layers end: the head for KameraNN, the rest for
    /// `ONNXTail`, and the head's outputs the tail reads (ONNX names and NCHW dims).
    struct Imported {
        var head: ModelGraph
        var tail: ONNXTail?
        var headOutputs: [(name: String, dims: [Int])]
    }

    /// Operators that start the tail: sequence and shape work, not image layers.
    static let tailOperators: Set<String> = [
        "Shape", "Reshape", "Transpose", "MatMul", "Softmax", "Squeeze", "Unsqueeze", "ReduceMean", "Slice", "Cast", "Pow", "Sqrt",
        "Flatten",
    ]

    /// The graph for a 1 × channels × `height` × `width` input, without a tail.
    /// - Throws: `KameraError.invalidModel` naming the node for an unsupported operator or
    ///   inconsistent shapes.
    static func graph(_ model: ONNXModel, path: String, height: Int, width: Int) throws -> ModelGraph {
        let imported = try split(model, path: path, height: height, width: width)
        guard imported.tail == nil else {
            throw KameraError.invalidModel(
                path: path, reason: "the graph has sequence layers after its image layers: run it as an ONNXProgram")
        }
        return imported.head
    }

    /// The head and tail for a 1 × channels × `height` × `width` input.
    static func split(_ model: ONNXModel, path: String, height: Int, width: Int) throws -> Imported {
        var importer = ONNXGraphImporter(model: model, path: path)
        return try importer.run(height: height, width: width)
    }

    private func fail(_ reason: String) -> KameraError { .invalidModel(path: path, reason: reason) }

    private mutating func run(height: Int, width: Int) throws -> Imported {
        guard let input = model.inputs.first(where: { constants[$0.name] == nil }), input.dims.count == 4,
            let channels = input.dims[1]
        else { throw fail("the model's input is not an image tensor N×C×H×W") }
        guard height > 0, width > 0, height <= 16384, width <= 16384 else { throw fail("input size \(width)×\(height) is out of range") }
        let inputIndex = addTensor(input.name, dims: [1, channels, height, width])
        // The tail starts at the first sequence operator on activations: one on constants
        // (Paddle reshapes each squeeze-and-excitation bias) is folded in the head.
        var constantNames = Set(constants.keys)
        for node in model.nodes where node.inputs.allSatisfy({ $0.isEmpty || constantNames.contains($0) }) {
            constantNames.formUnion(node.outputs)
        }
        let tailStart =
            model.nodes.firstIndex { node in
                Self.tailOperators.contains(node.opType) && !node.inputs.allSatisfy { $0.isEmpty || constantNames.contains($0) }
            } ?? model.nodes.count
        for (index, node) in model.nodes.enumerated() {
            for name in node.inputs { readers[name, default: []].append(index) }
        }
        for output in model.outputs { readers[output.name, default: []].append(-1) }
        // Constants first: Paddle's exporter writes a Clip's bounds as Constant nodes just
        // before the Clip, after the Add where a hard-swish's pattern begins.
        for (index, node) in model.nodes[..<tailStart].enumerated() where node.opType == "Constant" {
            try importNode(node)
            fused.insert(index)
        }
        for (index, node) in model.nodes[..<tailStart].enumerated() where !fused.contains(index) {
            do {
                if try fuseHardSwish(at: index) || (try foldIntoConvolution(node)) { continue }
                try importNode(node)
            } catch let error as KameraError {
                throw fail("node \(node.name) (\(node.opType)): \(error.reason)")
            }
        }
        let tailNodes = Array(model.nodes[tailStart...])
        // The head's outputs: what the tail reads of it, and the graph's outputs it computes.
        var names: [String] = []
        for name in tailNodes.flatMap(\.inputs) + model.outputs.map(\.name) where activations[name] != nil && !names.contains(name) {
            names.append(name)
        }
        guard !names.isEmpty else { throw fail("no output is computed from the input") }
        // Every tensor within the reader's bound before the compiler sizes memory for it.
        for tensor in tensors {
            var count = 1
            for dim in tensor.shape {
                let (product, overflow) = count.multipliedReportingOverflow(by: dim)
                guard dim >= 0, !overflow, product <= ONNXModelReader.maximumElements else {
                    throw fail("\(tensor.name) would be \(tensor.shape): too large")
                }
                count = product
            }
        }
        let head = ModelGraph(tensors: tensors, operations: operations, inputs: [inputIndex], outputs: names.map { activations[$0]!.index })
        let tail =
            tailNodes.isEmpty
            ? nil : ONNXTail(nodes: tailNodes, constants: constants, outputs: model.outputs.map(\.name), path: path)
        return Imported(head: head, tail: tail, headOutputs: names.map { ($0, activations[$0]!.dims) })
    }

    // MARK: Tensors

    /// A new activation tensor for ONNX dims (an image's NCHW dims become NHWC).
    private mutating func addTensor(_ name: String, dims: [Int]) -> Int {
        let shape = dims.count == 4 ? [dims[0], dims[2], dims[3], dims[1]] : dims
        tensors.append(GraphTensor(name: name, shape: shape, elementType: .float32))
        activations[name] = (tensors.count - 1, dims)
        return tensors.count - 1
    }

    private mutating func addConstant(_ name: String, shape: [Int], floats: [Float]) -> Int {
        tensors.append(GraphTensor(name: name, shape: shape, elementType: .float32, floats: floats))
        return tensors.count - 1
    }

    private mutating func addConstant(_ name: String, ints: [Int32]) -> Int {
        tensors.append(GraphTensor(name: name, shape: [ints.count], elementType: .int32, ints: ints))
        return tensors.count - 1
    }

    private func activation(_ name: String) throws -> (index: Int, dims: [Int]) {
        guard let found = activations[name] else { throw fail("input \(name) is neither computed nor constant") }
        return found
    }

    private func constant(_ name: String) throws -> ONNXModel.Tensor {
        guard let found = constants[name] else { throw fail("\(name) must be a constant") }
        return found
    }

    /// A constant's values as floats (integers widened).
    private func constantFloats(_ name: String) throws -> [Float] {
        let value = try constant(name)
        if let floats = value.floats { return floats }
        return value.ints?.map(Float.init) ?? []
    }

    // MARK: Nodes

    private mutating func importNode(_ node: ONNXModel.Node) throws {
        guard let out = node.outputs.first else { throw fail("no output") }
        let inputs = node.inputs.filter { !$0.isEmpty }
        // Arity checked once, so every case below may read its inputs by index.
        let needed =
            ["Constant": 0, "BatchNormalization": 5, "Add": 2, "Sub": 2, "Mul": 2, "Div": 2, "Conv": 2, "ConvTranspose": 2, "Reshape": 2][
                node.opType] ?? 1
        guard inputs.count >= needed else { throw fail("\(node.opType) needs \(needed) inputs, has \(inputs.count)") }
        switch node.opType {
        case "Constant":
            guard case .tensor(var value) = node.attributes["value"] else { throw fail("a Constant without a tensor value") }
            value.name = out
            constants[out] = value
        case "Identity":
            if let value = constants[inputs[0]] { constants[out] = value } else { activations[out] = try activation(inputs[0]) }
        case "Reshape":
            // Of a constant only (activations are reshaped in the tail).
            guard inputs.count == 2, var value = constants[inputs[0]], let shape = constants[inputs[1]]?.ints else {
                throw fail("Reshape is supported on constants before the sequence layers")
            }
            value.dims = try reshaped(value.dims, to: shape)
            value.name = out
            constants[out] = value
        case "Conv": try convolution(node, inputs, out)
        case "ConvTranspose": try transposedConvolution(node, inputs, out)
        case "BatchNormalization":
            let x = try activation(inputs[0])
            let (gamma, beta, mean, variance) = (
                try constantFloats(inputs[1]), try constantFloats(inputs[2]), try constantFloats(inputs[3]), try constantFloats(inputs[4])
            )
            let epsilon = node.float("epsilon") ?? 1e-5
            guard [gamma.count, beta.count, mean.count, variance.count].allSatisfy({ $0 == x.dims[1] }) else {
                throw fail("BatchNormalization parameters do not have one value per channel")
            }
            let scale = zip(gamma, variance).map { $0 / (($1 + epsilon).squareRoot()) }
            let shift = (0..<scale.count).map { beta[$0] - mean[$0] * scale[$0] }
            affine(x, out, scale: scale, shift: shift)
        case "Add", "Sub", "Mul", "Div": try arithmetic(node.opType, inputs, out)
        case "Clip":
            let x = try activation(inputs[0])
            // Opset 11+: bounds as inputs; before: attributes.
            let lower = inputs.count > 1 ? try constantFloats(inputs[1]).first ?? -.infinity : node.float("min") ?? -.infinity
            let upper = inputs.count > 2 ? try constantFloats(inputs[2]).first ?? .infinity : node.float("max") ?? .infinity
            if lower == 0, upper == 6 {
                operations.append(Relu6Operator(input: x.index, output: addTensor(out, dims: x.dims)))
            } else {
                affine(x, out, scale: [1], shift: [0], lower: lower, upper: upper)
            }
        case "Relu":
            let x = try activation(inputs[0])
            operations.append(ReluOperator(input: x.index, output: addTensor(out, dims: x.dims)))
        case "Sigmoid":
            let x = try activation(inputs[0])
            operations.append(LogisticOperator(input: x.index, output: addTensor(out, dims: x.dims)))
        case "HardSigmoid":
            let x = try activation(inputs[0])
            affine(x, out, scale: [node.float("alpha") ?? 0.2], shift: [node.float("beta") ?? 0.5], lower: 0, upper: 1)
        case "GlobalAveragePool":
            let x = try activation(inputs[0])
            guard x.dims.count == 4 else { throw fail("GlobalAveragePool of a \(x.dims.count)-D tensor") }
            let axes = addConstant(out + ".axes", ints: [1, 2])
            operations.append(MeanOperator(input: x.index, axes: axes, output: addTensor(out, dims: [1, x.dims[1], 1, 1])))
        case "Resize": try resize(node, inputs, out)
        case "AveragePool", "MaxPool":
            let x = try activation(inputs[0])
            let kernel = (node.ints("kernel_shape") ?? []).map(Int.init)
            guard x.dims.count == 4, kernel.count == 2, kernel.allSatisfy({ (1...64).contains($0) }), (node.int("ceil_mode") ?? 0) == 0
            else {
                throw fail("\(node.opType) of \(x.dims) with kernel \(kernel)")
            }
            let window = try self.window(node, kernel: (kernel[0], kernel[1]))
            if case .explicit = window.padding, node.opType == "AveragePool", (node.int("count_include_pad") ?? 0) != 0 {
                throw fail("AveragePool counting its padding is not supported")
            }
            let (oh, ow) = try outputSize(x.dims, kernel: (kernel[0], kernel[1]), window: window)
            let output = addTensor(out, dims: [1, x.dims[1], oh, ow])
            if node.opType == "AveragePool" {
                operations.append(
                    AveragePool2DOperator(
                        input: x.index, output: output, filterH: kernel[0], filterW: kernel[1], window: window, activation: .none))
            } else {
                operations.append(
                    MaxPool2DOperator(
                        input: x.index, output: output, filterH: kernel[0], filterW: kernel[1], window: window, activation: .none))
            }
        case "Concat":
            let parts = try inputs.map(activation)
            let rank = parts[0].dims.count
            var axis = Int(node.int("axis") ?? 1)
            if axis < 0 { axis += rank }
            guard rank == 4, axis == 1,
                parts.allSatisfy({ $0.dims.count == 4 && $0.dims[2] == parts[0].dims[2] && $0.dims[3] == parts[0].dims[3] })
            else { throw fail("Concat is supported along the channels of images of one size") }
            var dims = parts[0].dims
            dims[1] = parts.map { $0.dims[1] }.reduce(0, +)
            operations.append(
                ConcatenationOperator(inputs: parts.map(\.index), output: addTensor(out, dims: dims), axis: 3, activation: .none))
        default:
            throw fail("operator \(node.opType) is not supported")
        }
    }

    /// ONNX Reshape's target dims: 0 keeps the input's dim, one −1 takes the rest.
    private func reshaped(_ dims: [Int], to shape: [Int64]) throws -> [Int] {
        let count = dims.reduce(1, *)
        guard shape.count <= 8, shape.allSatisfy({ $0 >= -1 && $0 <= Int64(ONNXModelReader.maximumElements) }),
            shape.filter({ $0 == -1 }).count <= 1
        else { throw fail("Reshape to \(shape)") }
        var out = shape.enumerated().map { index, value in value == 0 && index < dims.count ? dims[index] : Int(value) }
        // Eight dims of up to 2^28 each overflow Int: a product past the bound is refused.
        func product(_ values: [Int]) -> Int? {
            var total = 1
            for value in values {
                let (next, overflow) = total.multipliedReportingOverflow(by: value)
                guard !overflow, next <= ONNXModelReader.maximumElements else { return nil }
                total = next
            }
            return total
        }
        if let free = out.firstIndex(of: -1) {
            guard let known = product(out.filter { $0 != -1 }), known > 0, count % known == 0 else {
                throw fail("Reshape of \(dims) to \(shape)")
            }
            out[free] = count / known
        }
        guard product(out) == count else { throw fail("Reshape of \(dims) to \(shape)") }
        return out
    }

    /// The only node reading `name` (nil when several do, or a graph output).
    private func soleReader(_ name: String) -> Int? {
        guard let list = readers[name], list.count == 1, list[0] >= 0 else { return nil }
        return list[0]
    }

    /// `x · clip(x + 3, 0, 6) / 6`, four ONNX nodes as Paddle exports it, as one HARD_SWISH.
    private mutating func fuseHardSwish(at index: Int) throws -> Bool {
        let add = model.nodes[index]
        func single(_ name: String) -> Float? {
            guard let c = constants[name], c.elementCount == 1 else { return nil }
            return c.floats?.first ?? c.ints.map { Float($0[0]) }
        }
        guard add.opType == "Add", add.inputs.count == 2, let x = activations[add.inputs[0]], single(add.inputs[1]) == 3,
            let clipIndex = soleReader(add.outputs[0]), model.nodes[clipIndex].opType == "Clip",
            model.nodes[clipIndex].inputs.count == 3, single(model.nodes[clipIndex].inputs[1]) == 0,
            single(model.nodes[clipIndex].inputs[2]) == 6,
            let mulIndex = soleReader(model.nodes[clipIndex].outputs[0]), model.nodes[mulIndex].opType == "Mul",
            Set(model.nodes[mulIndex].inputs) == [add.inputs[0], model.nodes[clipIndex].outputs[0]],
            let divIndex = soleReader(model.nodes[mulIndex].outputs[0]), model.nodes[divIndex].opType == "Div",
            model.nodes[divIndex].inputs.count == 2, model.nodes[divIndex].inputs[0] == model.nodes[mulIndex].outputs[0],
            single(model.nodes[divIndex].inputs[1]) == 6
        else { return false }
        operations.append(HardSwishOperator(input: x.index, output: addTensor(model.nodes[divIndex].outputs[0], dims: x.dims)))
        fused.formUnion([clipIndex, mulIndex, divIndex])
        return true
    }

    /// A Mul or Add by a constant, or a BatchNormalization, right after a convolution that
    /// nothing else reads: folded into the convolution's weights and bias (one pass fewer over
    /// the activations; Paddle exports a scale and a shift after most convolutions).
    private mutating func foldIntoConvolution(_ node: ONNXModel.Node) throws -> Bool {
        guard ["Mul", "Add", "BatchNormalization"].contains(node.opType), let out = node.outputs.first,
            node.inputs.count >= (node.opType == "BatchNormalization" ? 5 : 2)
        else { return false }
        let source = node.opType == "BatchNormalization" ? node.inputs[0] : node.inputs.first { activations[$0] != nil } ?? ""
        guard let conv = convolutions[source], let x = activations[source], soleReader(source) != nil, x.dims.count == 4 else {
            return false
        }
        let channels = x.dims[1]
        var scale = [Float](repeating: 1, count: channels), shift = [Float](repeating: 0, count: channels)
        if node.opType == "BatchNormalization" {
            guard let gamma = try? constantFloats(node.inputs[1]), let beta = try? constantFloats(node.inputs[2]),
                let mean = try? constantFloats(node.inputs[3]), let variance = try? constantFloats(node.inputs[4]),
                [gamma.count, beta.count, mean.count, variance.count].allSatisfy({ $0 == channels })
            else { return false }
            let epsilon = node.float("epsilon") ?? 1e-5
            for c in 0..<channels {
                scale[c] = gamma[c] / (variance[c] + epsilon).squareRoot()
                shift[c] = beta[c] - mean[c] * scale[c]
            }
        } else {
            guard node.inputs.count == 2, let name = node.inputs.first(where: { constants[$0] != nil }), let c = constants[name],
                let values = try? constantFloats(name), values.count == 1 || values.count == channels,
                c.dims.filter({ $0 != 1 }).count <= 1
            else { return false }
            for k in 0..<channels {
                let v = values.count == 1 ? values[0] : values[k]
                if node.opType == "Mul" { scale[k] = v } else { shift[k] = v }
            }
        }
        // y = (w·x + b)·s + t: w ← w·s, b ← b·s + t.
        guard var weights = tensors[conv.filter].floats, var bias = tensors[conv.bias].floats else { return false }
        if conv.depthwise {
            for i in weights.indices { weights[i] *= scale[i % channels] }
        } else {
            let block = weights.count / channels
            for i in weights.indices { weights[i] *= scale[i / block] }
        }
        for c in 0..<channels { bias[c] = bias[c] * scale[c] + shift[c] }
        (tensors[conv.filter].floats, tensors[conv.bias].floats) = (weights, bias)
        activations[out] = x
        convolutions[out] = conv
        return true
    }

    /// `y = clamp(x · scale + shift)` as one step.
    private mutating func affine(
        _ x: (index: Int, dims: [Int]), _ out: String, scale: [Float], shift: [Float], lower: Float = -.infinity, upper: Float = .infinity
    ) {
        operations.append(
            ChannelAffineOperator(
                input: x.index, output: addTensor(out, dims: x.dims), scale: scale, shift: shift, lower: lower, upper: upper))
    }

    /// Add, Sub, Mul, Div: of two constants (folded), of an activation and a constant (one
    /// value or one per channel: an affine step), or of two activations (the same shape, or
    /// an image times one value per channel).
    private mutating func arithmetic(_ op: String, _ inputs: [String], _ out: String) throws {
        guard inputs.count == 2 else { throw fail("\(op) takes two inputs") }
        let (left, right) = (inputs[0], inputs[1])
        if let a = constants[left], let b = constants[right] {
            constants[out] = try fold(op, a, b, name: out)
            return
        }
        if let c = constants[right] ?? constants[left] {
            let x = try activation(constants[right] != nil ? left : right)
            let constantFirst = constants[left] != nil
            let values = c.floats ?? c.ints?.map(Float.init) ?? []
            // One value, or one per channel laid out [C], [C,1,1] or [1,C,1,1].
            guard values.count == 1 || (x.dims.count == 4 && values.count == x.dims[1] && c.dims.filter({ $0 != 1 }).count <= 1) else {
                throw fail("\(op) with a constant of shape \(c.dims) is not supported")
            }
            switch (op, constantFirst) {
            case ("Add", _): affine(x, out, scale: [1], shift: values)
            case ("Mul", _): affine(x, out, scale: values, shift: [0])
            case ("Sub", false): affine(x, out, scale: [1], shift: values.map { -$0 })
            case ("Sub", true): affine(x, out, scale: [-1], shift: values)
            case ("Div", false): affine(x, out, scale: values.map { 1 / $0 }, shift: [0])
            default: throw fail("a constant divided by an activation is not supported")
            }
            return
        }
        let (a, b) = (try activation(left), try activation(right))
        let (large, small) = a.dims.reduce(1, *) >= b.dims.reduce(1, *) ? (a, b) : (b, a)
        let perChannel = small.dims != large.dims
        if perChannel {
            guard op == "Mul", large.dims.count == 4, small.dims == [1, large.dims[1], 1, 1] else {
                throw fail("\(op) of \(a.dims) and \(b.dims): broadcasting is supported for a product by one value per channel only")
            }
        }
        let output = addTensor(out, dims: large.dims)
        switch op {
        case "Add": operations.append(AddOperator(a.index, b.index, output: output, activation: .none))
        case "Mul": operations.append(MulOperator(large.index, small.index, output: output, activation: .none))
        default: throw fail("\(op) of two activations is not supported")
        }
    }

    /// Elementwise arithmetic of two constants with scalar broadcasting.
    private func fold(_ op: String, _ a: ONNXModel.Tensor, _ b: ONNXModel.Tensor, name: String) throws -> ONNXModel.Tensor {
        let (x, y) = (a.floats ?? a.ints?.map(Float.init) ?? [], b.floats ?? b.ints?.map(Float.init) ?? [])
        guard x.count == y.count || x.count == 1 || y.count == 1 else { throw fail("\(op) of constants \(a.dims) and \(b.dims)") }
        let count = max(x.count, y.count)
        let values = (0..<count).map { i -> Float in
            let (p, q) = (x[x.count == 1 ? 0 : i], y[y.count == 1 ? 0 : i])
            switch op {
            case "Add": return p + q
            case "Sub": return p - q
            case "Mul": return p * q
            default: return p / q
            }
        }
        let dims = x.count >= y.count ? a.dims : b.dims
        if a.ints != nil, b.ints != nil, op != "Div" {
            return ONNXModel.Tensor(name: name, dims: dims, ints: values.map { Int64($0) })
        }
        return ONNXModel.Tensor(name: name, dims: dims, floats: values)
    }

    private mutating func convolution(_ node: ONNXModel.Node, _ inputs: [String], _ out: String) throws {
        let x = try activation(inputs[0])
        let w = try constant(inputs[1])
        guard x.dims.count == 4, w.dims.count == 4, let weights = w.floats else {
            throw fail("Conv is supported on images with constant weights")
        }
        let (oc, icPerGroup, kh, kw) = (w.dims[0], w.dims[1], w.dims[2], w.dims[3])
        let ic = x.dims[1]
        let group = Int(node.int("group") ?? 1)
        let window = try self.window(node, kernel: (kh, kw))
        let bias = inputs.count > 2 ? try constantFloats(inputs[2]) : [Float](repeating: 0, count: oc)
        guard bias.count == oc else { throw fail("Conv bias has \(bias.count) values for \(oc) channels") }
        let biasIndex = addConstant(out + ".bias", shape: [oc], floats: bias)
        let (oh, ow) = try outputSize(x.dims, kernel: (kh, kw), window: window)
        if group == 1 {
            guard icPerGroup == ic else { throw fail("Conv weights \(w.dims) for \(ic) input channels") }
            // OIHW → OHWI.
            var packed = [Float](repeating: 0, count: weights.count)
            for o in 0..<oc {
                for c in 0..<ic {
                    for y in 0..<kh {
                        for xx in 0..<kw { packed[((o * kh + y) * kw + xx) * ic + c] = weights[((o * ic + c) * kh + y) * kw + xx] }
                    }
                }
            }
            let filter = addConstant(out + ".filter", shape: [oc, kh, kw, ic], floats: packed)
            let output = addTensor(out, dims: [1, oc, oh, ow])
            operations.append(
                Conv2DOperator(input: x.index, filter: filter, bias: biasIndex, output: output, window: window, activation: .none))
            convolutions[out] = (filter, biasIndex, false)
        } else if group == ic, icPerGroup == 1, oc % ic == 0 {
            // Depthwise: [O, 1, kh, kw] → [1, kh, kw, O].
            var packed = [Float](repeating: 0, count: weights.count)
            for o in 0..<oc {
                for y in 0..<kh {
                    for xx in 0..<kw { packed[(y * kw + xx) * oc + o] = weights[(o * kh + y) * kw + xx] }
                }
            }
            let filter = addConstant(out + ".filter", shape: [1, kh, kw, oc], floats: packed)
            let output = addTensor(out, dims: [1, oc, oh, ow])
            operations.append(
                DepthwiseConv2DOperator(
                    input: x.index, filter: filter, bias: biasIndex, output: output, window: window, depthMultiplier: oc / ic,
                    activation: .none))
            convolutions[out] = (filter, biasIndex, true)
        } else {
            throw fail("Conv with \(group) groups of \(icPerGroup) channels is not supported (only 1 group, or depthwise)")
        }
    }

    private mutating func transposedConvolution(_ node: ONNXModel.Node, _ inputs: [String], _ out: String) throws {
        let x = try activation(inputs[0])
        let w = try constant(inputs[1])
        guard x.dims.count == 4, w.dims.count == 4, let weights = w.floats, Int(node.int("group") ?? 1) == 1 else {
            throw fail("ConvTranspose is supported on images with constant weights, one group")
        }
        let (ic, oc, kh, kw) = (w.dims[0], w.dims[1], w.dims[2], w.dims[3])
        let strides = (node.ints("strides") ?? [1, 1]).map(Int.init)
        let pads = (node.ints("pads") ?? [0, 0, 0, 0]).map(Int.init)
        guard ic == x.dims[1], strides == [kh, kw], pads.allSatisfy({ $0 == 0 }),
            node.ints("output_padding")?.allSatisfy({ $0 == 0 }) ?? true
        else {
            throw fail("ConvTranspose is supported with the kernel equal to the stride and no padding")
        }
        // [I, O, kh, kw] → [O, kh, kw, I].
        var packed = [Float](repeating: 0, count: weights.count)
        for i in 0..<ic {
            for o in 0..<oc {
                for y in 0..<kh {
                    for xx in 0..<kw { packed[((o * kh + y) * kw + xx) * ic + i] = weights[((i * oc + o) * kh + y) * kw + xx] }
                }
            }
        }
        let bias = inputs.count > 2 ? try constantFloats(inputs[2]) : [Float](repeating: 0, count: oc)
        guard bias.count == oc else { throw fail("ConvTranspose bias has \(bias.count) values for \(oc) channels") }
        let filter = addConstant(out + ".filter", shape: [oc, kh, kw, ic], floats: packed)
        let biasIndex = addConstant(out + ".bias", shape: [oc], floats: bias)
        let output = addTensor(out, dims: [1, oc, x.dims[2] * kh, x.dims[3] * kw])
        operations.append(
            TransposeConvBiasOperator(input: x.index, weights: filter, bias: biasIndex, output: output, strideW: kw, strideH: kh))
        // Output channels lead the weights, as a convolution's: a BatchNormalization after it folds in.
        convolutions[out] = (filter, biasIndex, false)
    }

    private mutating func resize(_ node: ONNXModel.Node, _ inputs: [String], _ out: String) throws {
        let x = try activation(inputs[0])
        guard x.dims.count == 4, node.string("mode") ?? "nearest" == "nearest",
            ["asymmetric", nil].contains(node.string("coordinate_transformation_mode")),
            ["floor", nil].contains(node.string("nearest_mode"))
        else { throw fail("Resize is supported in nearest mode with asymmetric coordinates and floor rounding") }
        // Opset 11+: roi 1, scales 2, sizes 3 (an empty name or empty tensor when unused).
        var (oh, ow) = (0, 0)
        if inputs.count > 3 || (node.inputs.count > 3 && !node.inputs[3].isEmpty), let sizes = constants[node.inputs[3]]?.ints,
            sizes.count == 4
        {
            (oh, ow) = (Int(sizes[2]), Int(sizes[3]))
        } else if node.inputs.count > 2, let scales = constants[node.inputs[2]]?.floats, scales.count == 4 {
            // Checked before converting: a NaN or huge scale from the file must not trap.
            guard scales[0] == 1, scales[1] == 1, scales[2...].allSatisfy({ $0.isFinite && $0 > 0 && $0 <= 64 }) else {
                throw fail("Resize scales \(scales) (batch and channels must stay, the sides scale by at most 64)")
            }
            (oh, ow) = (Int((Float(x.dims[2]) * scales[2]).rounded(.down)), Int((Float(x.dims[3]) * scales[3]).rounded(.down)))
        } else {
            throw fail("Resize needs constant scales or sizes")
        }
        guard oh > 0, ow > 0, oh <= 1 << 15, ow <= 1 << 15 else { throw fail("Resize to \(ow)×\(oh)") }
        operations.append(ResizeNearestOperator(input: x.index, output: addTensor(out, dims: [1, x.dims[1], oh, ow])))
    }

    /// Strides, dilations and explicit pads of a convolution (`auto_pad` SAME_UPPER is
    /// TFLite's SAME).
    private func window(_ node: ONNXModel.Node, kernel: (Int, Int)) throws -> Window {
        let strides = (node.ints("strides") ?? [1, 1]).map(Int.init)
        let dilations = (node.ints("dilations") ?? [1, 1]).map(Int.init)
        guard strides.count == 2, dilations.count == 2, (strides + dilations).allSatisfy({ (1...64).contains($0) }) else {
            throw fail("strides \(strides) or dilations \(dilations) out of range")
        }
        var window = Window(strideH: strides[0], strideW: strides[1], dilationH: dilations[0], dilationW: dilations[1])
        switch node.string("auto_pad") ?? "NOTSET" {
        case "SAME_UPPER": window.padding = .same
        case "VALID": window.padding = .valid
        case "NOTSET":
            let pads = (node.ints("pads") ?? [0, 0, 0, 0]).map(Int.init)
            guard pads.count == 4, pads.allSatisfy({ (0...64).contains($0) }) else { throw fail("pads \(pads) out of range") }
            window.padding = pads.allSatisfy({ $0 == 0 }) ? .valid : .explicit(top: pads[0], left: pads[1], bottom: pads[2], right: pads[3])
        case let other: throw fail("auto_pad \(other) is not supported")
        }
        return window
    }

    /// A convolution's output height and width.
    private func outputSize(_ dims: [Int], kernel: (Int, Int), window: Window) throws -> (Int, Int) {
        let (ih, iw) = (dims[2], dims[3])
        let effH = (kernel.0 - 1) * window.dilationH + 1, effW = (kernel.1 - 1) * window.dilationW + 1
        let size: (Int, Int) =
            switch window.padding {
            case .same: ((ih + window.strideH - 1) / window.strideH, (iw + window.strideW - 1) / window.strideW)
            case .valid: ((ih - effH) / window.strideH + 1, (iw - effW) / window.strideW + 1)
            case .explicit(let top, let left, let bottom, let right):
                ((ih + top + bottom - effH) / window.strideH + 1, (iw + left + right - effW) / window.strideW + 1)
            }
        guard size.0 > 0, size.1 > 0 else { throw fail("the input \(iw)×\(ih) is smaller than the kernel") }
        return size
    }
}
