import CKameraNNKernels
import Foundation
import KameraCore

/// The part of an ONNX graph after its image layers: sequence and attention operators on
/// small tensors (a recognizer's transformer over the ~40 columns of a text line) that
/// KameraNN's NHWC image runtime has no use for. Evaluated node by node on plain row-major
/// arrays with ONNX's own semantics (NumPy broadcasting, shapes computed at run time).
struct ONNXTail: Sendable {
    /// A tensor: its ONNX shape and values (integers held as floats: shapes and indices here
    /// are far below 2^24).
    struct Array: Sendable {
        var shape: [Int]
        var values: [Float]

        var count: Int { shape.reduce(1, *) }
    }

    /// A constant weight packed for KameraNN's GEMM (blocks of 16 output columns, each
    /// `[k][16]`), with a zero or real bias padded alike.
    struct PackedWeights: Sendable {
        var k: Int, n: Int
        var values: [Float]
        var bias: [Float]
    }

    let nodes: [ONNXModel.Node]
    let constants: [String: ONNXModel.Tensor]
    let outputs: [String]
    let path: String
    /// By node output: the MatMuls with a constant right operand and the Convs, their weights
    /// packed once (the classifier's 120 × 6,625 product is most of a line's reading).
    let packed: [String: PackedWeights]
    /// Add nodes whose constant was folded into the bias of the MatMul they read: output →
    /// the MatMul's output, passed on as it is.
    let biasAdds: [String: String]

    init(nodes: [ONNXModel.Node], constants: [String: ONNXModel.Tensor], outputs: [String], path: String) {
        (self.nodes, self.constants, self.outputs, self.path) = (nodes, constants, outputs, path)
        var packed: [String: PackedWeights] = [:]
        func pack(k: Int, n: Int, bias: [Float]?, _ value: (Int, Int) -> Float) -> PackedWeights {
            let blocks = (n + 15) / 16
            var values = [Float](repeating: 0, count: blocks * k * 16)
            for block in 0..<blocks {
                for kk in 0..<k {
                    for lane in 0..<16 where block * 16 + lane < n { values[(block * k + kk) * 16 + lane] = value(kk, block * 16 + lane) }
                }
            }
            var padded = [Float](repeating: 0, count: blocks * 16)
            if let bias { for i in 0..<min(n, bias.count) { padded[i] = bias[i] } }
            return PackedWeights(k: k, n: n, values: values, bias: padded)
        }
        var readers: [String: [ONNXModel.Node]] = [:]
        for node in nodes { for name in node.inputs { readers[name, default: []].append(node) } }
        var biasAdds: [String: String] = [:]
        for node in nodes {
            if node.opType == "MatMul", node.inputs.count == 2, let b = constants[node.inputs[1]], b.dims.count == 2, let w = b.floats {
                let (k, n) = (b.dims[0], b.dims[1])
                // A bias added right after (the recognizer's last layer) goes into the GEMM.
                var bias: [Float]?
                if let list = readers[node.outputs[0]], list.count == 1, !outputs.contains(node.outputs[0]), list[0].opType == "Add",
                    list[0].inputs.count == 2, let c = list[0].inputs.first(where: { constants[$0] != nil }),
                    let values = constants[c]?.floats, values.count == n, constants[c]?.dims == [n],
                    let added = list[0].outputs.first
                {
                    bias = values
                    biasAdds[added] = node.outputs[0]
                }
                packed[node.outputs[0]] = pack(k: k, n: n, bias: bias) { w[$0 * n + $1] }
            }
            if node.opType == "Conv", node.inputs.count >= 2, let f = constants[node.inputs[1]], f.dims.count == 4, let w = f.floats,
                (node.int("group") ?? 1) == 1
            {
                // im2col's order: (ky, kx, channel).
                let (oc, c, kh, kw) = (f.dims[0], f.dims[1], f.dims[2], f.dims[3])
                let bias = node.inputs.count > 2 ? constants[node.inputs[2]]?.floats : nil
                packed[node.outputs[0]] = pack(k: kh * kw * c, n: oc, bias: bias) { kk, o in
                    let (ky, rest) = (kk / (kw * c), kk % (kw * c))
                    let (kx, ci) = (rest / c, rest % c)
                    return w[((o * c + ci) * kh + ky) * kw + kx]
                }
            }
        }
        self.packed = packed
        self.biasAdds = biasAdds
    }

    func fail(_ reason: String) -> KameraError { .invalidModel(path: path, reason: reason) }

    /// Runs the nodes on the head's outputs (by ONNX name, NCHW) and returns the graph's outputs.
    func run(_ inputs: [String: Array]) throws -> [Array] {
        var values = inputs
        func value(_ name: String) throws -> Array {
            if let found = values[name] { return found }
            if let constant = constants[name] {
                return Array(shape: constant.dims, values: constant.floats ?? constant.ints?.map(Float.init) ?? [])
            }
            throw fail("tail input \(name) is missing")
        }
        for node in nodes {
            if let output = node.outputs.first, let product = biasAdds[output], let value = values[product] {
                values[output] = value
                continue
            }
            let inputs = try node.inputs.map { $0.isEmpty ? Array(shape: [0], values: []) : try value($0) }
            guard let output = node.outputs.first else { throw fail("node \(node.name) (\(node.opType)) has no output") }
            do {
                // Arity checked here so that every operator below may read its inputs by index.
                let needed = Self.inputCounts[node.opType] ?? 1
                guard inputs.count >= needed, inputs.prefix(needed).allSatisfy({ $0.values.count == $0.count }) else {
                    throw fail("\(node.opType) needs \(needed) inputs, has \(inputs.count)")
                }
                values[output] = try evaluate(node, inputs)
            } catch let error as KameraError {
                throw fail("node \(node.name) (\(node.opType)): \(error.reason)")
            }
        }
        return try outputs.map(value)
    }

    // MARK: Operators

    /// Inputs each operator reads by index (others: one; Constant and Shape: see their cases).
    static let inputCounts: [String: Int] = [
        "Constant": 0, "Add": 2, "Sub": 2, "Mul": 2, "Div": 2, "Pow": 2, "MatMul": 2, "Reshape": 2, "Slice": 3,
        "BatchNormalization": 5, "Conv": 2,
    ]

    /// Elements one computed array may hold (1 GiB of floats), as for the model's own tensors.
    static let maximumElements = ONNXModelReader.maximumElements

    /// Whole numbers (shapes, axes, slice bounds) from an array: a NaN or infinity is a bad
    /// model; values past ±2^31 (exporters write INT64_MAX for "to the end") are clamped
    /// before converting, never trapped on.
    private func integers(_ a: Array) throws -> [Int] {
        try a.values.map { v in
            guard v.isFinite else { throw fail("a shape, axis or index is \(v)") }
            return Int(min(max(Double(v), -2_147_483_648), 2_147_483_647))
        }
    }

    /// `raw` (negative counts from the end) as an axis of a rank-`rank` array.
    private func axis(_ raw: Int, rank: Int) throws -> Int {
        let axis = raw < 0 ? raw + rank : raw
        guard (0..<rank).contains(axis) else { throw fail("axis \(raw) of a \(rank)-D array") }
        return axis
    }

    private func evaluate(_ node: ONNXModel.Node, _ x: [Array]) throws -> Array {
        switch node.opType {
        case "Constant":
            guard case .tensor(let t) = node.attributes["value"] else { throw fail("Constant without a tensor") }
            return Array(shape: t.dims, values: t.floats ?? t.ints?.map(Float.init) ?? [])
        case "Identity", "Cast": return x[0]
        case "Shape": return Array(shape: [x[0].shape.count], values: x[0].shape.map(Float.init))
        case "Add": return try broadcast(x[0], x[1], +)
        case "Sub": return try broadcast(x[0], x[1], -)
        case "Mul": return try broadcast(x[0], x[1], *)
        case "Div": return try broadcast(x[0], x[1], /)
        case "Pow": return try broadcast(x[0], x[1]) { $1 == 2 ? $0 * $0 : pow($0, $1) }
        case "Sqrt": return map(x[0]) { $0.squareRoot() }
        case "Sigmoid": return map(x[0]) { 1 / (1 + exp(-$0)) }
        case "Relu": return map(x[0]) { max($0, 0) }
        case "HardSigmoid":
            let (alpha, beta) = (node.float("alpha") ?? 0.2, node.float("beta") ?? 0.5)
            return map(x[0]) { min(max(alpha * $0 + beta, 0), 1) }
        case "Clip":
            let lower = x.count > 1 && !x[1].values.isEmpty ? x[1].values[0] : -.infinity
            let upper = x.count > 2 && !x[2].values.isEmpty ? x[2].values[0] : .infinity
            return map(x[0]) { min(max($0, lower), upper) }
        case "Slice": return try slice(x)
        case "Concat": return try concat(x, axis: Int(node.int("axis") ?? 0))
        case "Reshape": return try reshape(x[0], to: try integers(x[1]))
        case "Squeeze": return try squeeze(x[0], axes: try node.ints("axes")?.map(Int.init) ?? (x.count > 1 ? try integers(x[1]) : []))
        case "Unsqueeze":
            var shape = x[0].shape
            let axes = try node.ints("axes")?.map(Int.init) ?? (x.count > 1 ? try integers(x[1]) : [])
            for raw in axes.sorted() { shape.insert(1, at: try axis(raw, rank: shape.count + 1)) }
            return Array(shape: shape, values: x[0].values)
        case "Transpose":
            return try transpose(x[0], permutation: node.ints("perm")?.map(Int.init) ?? Swift.Array(x[0].shape.indices.reversed()))
        case "ReduceMean": return try reduceMean(x[0], axes: node.ints("axes")?.map(Int.init) ?? [], keep: (node.int("keepdims") ?? 1) != 0)
        case "Softmax": return try softmax(x[0], axis: Int(node.int("axis") ?? -1))
        case "MatMul":
            if let weights = packed[node.outputs[0]], x[0].shape.last == weights.k { return gemm(x[0], weights) }
            return try matmul(x[0], x[1])
        case "BatchNormalization":
            let epsilon = node.float("epsilon") ?? 1e-5
            guard x[0].shape.count >= 2, (1...4).allSatisfy({ x[$0].count == x[0].shape[1] }) else {
                throw fail("BatchNormalization parameters do not have one value per channel of \(x[0].shape)")
            }
            let channels = x[0].shape[1]
            let inner = x[0].count / max(x[0].shape[0] * channels, 1)
            var out = x[0]
            for n in 0..<x[0].shape[0] {
                for c in 0..<channels {
                    let scale = x[1].values[c] / (x[4].values[c] + epsilon).squareRoot()
                    let shift = x[2].values[c] - x[3].values[c] * scale
                    let base = (n * channels + c) * inner
                    for i in 0..<inner { out.values[base + i] = x[0].values[base + i] * scale + shift }
                }
            }
            return out
        case "Conv":
            if let weights = packed[node.outputs[0]] { return try packedConvolution(node, x[0], weights) }
            return try convolution(node, x)
        default: throw fail("operator \(node.opType) is not supported")
        }
    }

    private func map(_ a: Array, _ f: (Float) -> Float) -> Array { Array(shape: a.shape, values: a.values.map(f)) }

    /// NumPy broadcasting of two arrays.
    private func broadcast(_ a: Array, _ b: Array, _ f: (Float, Float) -> Float) throws -> Array {
        if a.shape == b.shape { return Array(shape: a.shape, values: zip(a.values, b.values).map(f)) }
        if b.count == 1 { let v = b.values[0]; return Array(shape: a.shape, values: a.values.map { f($0, v) }) }
        if a.count == 1 { let v = a.values[0]; return Array(shape: b.shape, values: b.values.map { f(v, $0) }) }
        guard a.count > 0, b.count > 0 else { throw fail("\(a.shape) and \(b.shape): an empty operand") }
        let rank = max(a.shape.count, b.shape.count)
        let sa = [Int](repeating: 1, count: rank - a.shape.count) + a.shape
        let sb = [Int](repeating: 1, count: rank - b.shape.count) + b.shape
        var shape = [Int](repeating: 1, count: rank)
        for i in 0..<rank {
            guard sa[i] == sb[i] || sa[i] == 1 || sb[i] == 1 else { throw fail("cannot broadcast \(a.shape) and \(b.shape)") }
            shape[i] = max(sa[i], sb[i])
        }
        guard shape.reduce(1, { $0.multipliedReportingOverflow(by: $1).overflow ? Int.max : $0 * $1 }) <= Self.maximumElements else {
            throw fail("broadcasting \(a.shape) and \(b.shape) is too large")
        }
        func strides(_ s: [Int]) -> [Int] {
            var result = [Int](repeating: 0, count: rank)
            var step = 1
            for i in (0..<rank).reversed() {
                result[i] = s[i] == 1 ? 0 : step
                step *= s[i]
            }
            return result
        }
        let (ta, tb) = (strides(sa), strides(sb))
        let count = shape.reduce(1, *)
        var out = [Float](repeating: 0, count: count)
        var index = [Int](repeating: 0, count: rank)
        var (ia, ib) = (0, 0)
        for o in 0..<count {
            out[o] = f(a.values[ia], b.values[ib])
            var axis = rank - 1
            while axis >= 0 {
                index[axis] += 1
                ia += ta[axis]
                ib += tb[axis]
                if index[axis] < shape[axis] { break }
                ia -= ta[axis] * shape[axis]
                ib -= tb[axis] * shape[axis]
                index[axis] = 0
                axis -= 1
            }
        }
        return Array(shape: shape, values: out)
    }

    private func slice(_ x: [Array]) throws -> Array {
        let data = x[0]
        let (starts, ends) = (try integers(x[1]), try integers(x[2]))
        let axes = x.count > 3 && !x[3].values.isEmpty ? try integers(x[3]) : Swift.Array(starts.indices)
        let steps = x.count > 4 && !x[4].values.isEmpty ? try integers(x[4]) : [Int](repeating: 1, count: starts.count)
        guard ends.count == starts.count, axes.count == starts.count, steps.count == starts.count else {
            throw fail("Slice with \(starts.count) starts, \(ends.count) ends, \(axes.count) axes, \(steps.count) steps")
        }
        var begin = [Int](repeating: 0, count: data.shape.count), size = data.shape
        for (i, rawAxis) in axes.enumerated() {
            let axis = try self.axis(rawAxis, rank: data.shape.count)
            guard steps[i] == 1 else { throw fail("Slice with step \(steps[i])") }
            let dim = data.shape[axis]
            func clamp(_ v: Int) -> Int { min(max(v < 0 ? v + dim : v, 0), dim) }
            let (s, e) = (clamp(starts[i]), clamp(ends[i]))
            (begin[axis], size[axis]) = (s, max(0, e - s))
        }
        return gather(data, begin: begin, size: size)
    }

    /// The block of `data` starting at `begin` of `size`.
    private func gather(_ data: Array, begin: [Int], size: [Int]) -> Array {
        let rank = data.shape.count
        var strides = [Int](repeating: 1, count: rank)
        for i in stride(from: rank - 2, through: 0, by: -1) { strides[i] = strides[i + 1] * data.shape[i + 1] }
        let count = size.reduce(1, *)
        var out = [Float](repeating: 0, count: count)
        guard count > 0 else { return Array(shape: size, values: []) }
        var index = [Int](repeating: 0, count: rank)
        for o in 0..<count {
            var at = 0
            for i in 0..<rank { at += (begin[i] + index[i]) * strides[i] }
            out[o] = data.values[at]
            var axis = rank - 1
            while axis >= 0 {
                index[axis] += 1
                if index[axis] < size[axis] { break }
                index[axis] = 0
                axis -= 1
            }
        }
        return Array(shape: size, values: out)
    }

    private func concat(_ parts: [Array], axis rawAxis: Int) throws -> Array {
        let rank = parts[0].shape.count
        let axis = try self.axis(rawAxis, rank: rank)
        // Every part alike but along the axis, or the blocks below would not line up.
        guard parts.allSatisfy({ p in p.shape.count == rank && (0..<rank).allSatisfy { $0 == axis || p.shape[$0] == parts[0].shape[$0] } })
        else { throw fail("Concat of \(parts.map(\.shape)) along \(rawAxis)") }
        var shape = parts[0].shape
        shape[axis] = parts.map { $0.shape[axis] }.reduce(0, +)
        let outer = shape[..<axis].reduce(1, *)
        var out: [Float] = []
        out.reserveCapacity(shape.reduce(1, *))
        for o in 0..<outer {
            for part in parts {
                let block = part.shape[axis...].reduce(1, *)
                out += part.values[(o * block)..<((o + 1) * block)]
            }
        }
        return Array(shape: shape, values: out)
    }

    private func reshape(_ a: Array, to raw: [Int]) throws -> Array {
        var shape = raw.enumerated().map { $0.element == 0 ? a.shape[$0.offset] : $0.element }
        if let unknown = shape.firstIndex(of: -1) {
            let known = shape.filter { $0 != -1 }.reduce(1, *)
            guard known > 0, a.count % known == 0 else { throw fail("cannot reshape \(a.shape) to \(raw)") }
            shape[unknown] = a.count / known
        }
        guard shape.reduce(1, *) == a.count else { throw fail("cannot reshape \(a.shape) to \(raw)") }
        return Array(shape: shape, values: a.values)
    }

    private func squeeze(_ a: Array, axes: [Int]) throws -> Array {
        let drop = Set(axes.map { $0 < 0 ? $0 + a.shape.count : $0 })
        let shape = a.shape.enumerated().filter { drop.isEmpty ? $0.element != 1 : !drop.contains($0.offset) }.map(\.element)
        return Array(shape: shape, values: a.values)
    }

    private func transpose(_ a: Array, permutation: [Int]) throws -> Array {
        let rank = a.shape.count
        guard permutation.sorted() == Swift.Array(0..<rank) else { throw fail("bad permutation \(permutation)") }
        var strides = [Int](repeating: 1, count: rank)
        for i in stride(from: rank - 2, through: 0, by: -1) { strides[i] = strides[i + 1] * a.shape[i + 1] }
        let shape = permutation.map { a.shape[$0] }
        let moved = permutation.map { strides[$0] }
        var out = [Float](repeating: 0, count: a.count)
        var index = [Int](repeating: 0, count: rank)
        var at = 0
        for o in 0..<a.count {
            out[o] = a.values[at]
            var axis = rank - 1
            while axis >= 0 {
                index[axis] += 1
                at += moved[axis]
                if index[axis] < shape[axis] { break }
                at -= moved[axis] * shape[axis]
                index[axis] = 0
                axis -= 1
            }
        }
        return Array(shape: shape, values: out)
    }

    /// Mean over the last axis (the layer norms' case) or any single axis.
    private func reduceMean(_ a: Array, axes: [Int], keep: Bool) throws -> Array {
        guard axes.count == 1 else { throw fail("ReduceMean over \(axes.count) axes") }
        let axis = try self.axis(axes[0], rank: a.shape.count)
        let (outer, length, inner) = (a.shape[..<axis].reduce(1, *), a.shape[axis], a.shape[(axis + 1)...].reduce(1, *))
        var out = [Float](repeating: 0, count: outer * inner)
        for o in 0..<outer {
            for i in 0..<inner {
                var sum: Float = 0
                for k in 0..<length { sum += a.values[(o * length + k) * inner + i] }
                out[o * inner + i] = sum / Float(length)
            }
        }
        var shape = a.shape
        if keep { shape[axis] = 1 } else { shape.remove(at: axis) }
        return Array(shape: shape, values: out)
    }

    private func softmax(_ a: Array, axis raw: Int) throws -> Array {
        let axis = try self.axis(raw, rank: a.shape.count)
        let (outer, length, inner) = (a.shape[..<axis].reduce(1, *), a.shape[axis], a.shape[(axis + 1)...].reduce(1, *))
        var out = a.values
        if inner == 1 {
            // The usual case (the last axis): a vector kernel per row.
            out.withUnsafeMutableBufferPointer { knn_softmax_rows($0.baseAddress!, $0.baseAddress!, outer, length) }
            return Array(shape: a.shape, values: out)
        }
        for o in 0..<outer {
            for i in 0..<inner {
                var peak = -Float.infinity
                for k in 0..<length { peak = max(peak, out[(o * length + k) * inner + i]) }
                var sum: Float = 0
                for k in 0..<length {
                    let e = exp(out[(o * length + k) * inner + i] - peak)
                    out[(o * length + k) * inner + i] = e
                    sum += e
                }
                for k in 0..<length { out[(o * length + k) * inner + i] /= sum }
            }
        }
        return Array(shape: a.shape, values: out)
    }

    /// Batched matrix product with broadcasting over the leading axes (a 2-D right operand
    /// is a weight shared by every row).
    private func matmul(_ a: Array, _ b: Array) throws -> Array {
        guard a.shape.count >= 2, b.shape.count >= 2 else { throw fail("MatMul of \(a.shape) and \(b.shape)") }
        let (m, k) = (a.shape[a.shape.count - 2], a.shape[a.shape.count - 1])
        let (k2, n) = (b.shape[b.shape.count - 2], b.shape[b.shape.count - 1])
        guard k == k2 else { throw fail("MatMul of \(a.shape) and \(b.shape)") }
        let batchA = Swift.Array(a.shape.dropLast(2)), batchB = Swift.Array(b.shape.dropLast(2))
        let batches = batchA.reduce(1, *)
        guard batchB.isEmpty || batchB == batchA else { throw fail("MatMul broadcasting \(a.shape) × \(b.shape)") }
        var out = [Float](repeating: 0, count: batches * m * n)
        a.values.withUnsafeBufferPointer { pa in
            b.values.withUnsafeBufferPointer { pb in
                out.withUnsafeMutableBufferPointer { po in
                    for batch in 0..<batches {
                        let (ba, bb, bo) = (batch * m * k, batchB.isEmpty ? 0 : batch * k * n, batch * m * n)
                        for i in 0..<m {
                            for p in 0..<k {
                                let v = pa[ba + i * k + p]
                                if v == 0 { continue }
                                let row = bb + p * n, target = bo + i * n
                                for j in 0..<n { po[target + j] += v * pb[row + j] }
                            }
                        }
                    }
                }
            }
        }
        return Array(shape: batchA + [m, n], values: out)
    }

    /// `a` (rows of k) times a packed constant, on KameraNN's GEMM.
    private func gemm(_ a: Array, _ weights: PackedWeights) -> Array {
        let rows = a.count / weights.k
        var out = [Float](repeating: 0, count: rows * weights.n)
        a.values.withUnsafeBufferPointer { pa in
            weights.values.withUnsafeBufferPointer { pw in
                weights.bias.withUnsafeBufferPointer { pb in
                    out.withUnsafeMutableBufferPointer { po in
                        knn_gemm(
                            pa.baseAddress!, rows, weights.k, weights.k, pw.baseAddress!, pb.baseAddress!, weights.n, po.baseAddress!,
                            weights.n, knn_identity_activation())
                    }
                }
            }
        }
        return Array(shape: Swift.Array(a.shape.dropLast()) + [weights.n], values: out)
    }

    /// An NCHW convolution on KameraNN's indirect GEMM (input turned to NHWC first).
    private func packedConvolution(_ node: ONNXModel.Node, _ input: Array, _ weights: PackedWeights) throws -> Array {
        guard input.shape.count == 4, input.shape[0] == 1 else { throw fail("Conv of \(input.shape)") }
        let (c, h, w) = (input.shape[1], input.shape[2], input.shape[3])
        let kernel = (node.ints("kernel_shape") ?? []).map(Int.init)
        let pads = (node.ints("pads") ?? [0, 0, 0, 0]).map(Int.init)
        let strides = (node.ints("strides") ?? [1, 1]).map(Int.init)
        let dilations = (node.ints("dilations") ?? [1, 1]).map(Int.init)
        guard kernel.count == 2, pads.count == 4, strides.count == 2, dilations.count == 2, kernel.allSatisfy({ (1...64).contains($0) }),
            pads.allSatisfy({ (0...64).contains($0) }), (strides + dilations).allSatisfy({ (1...64).contains($0) }),
            kernel[0] * kernel[1] * c == weights.k, kernel[0] * kernel[1] <= Int(KNN_INDIRECT_MAX_TAPS)
        else {
            throw fail("Conv of \(input.shape) with kernel \(kernel)")
        }
        let oh = (h + pads[0] + pads[2] - (kernel[0] - 1) * dilations[0] - 1) / strides[0] + 1
        let ow = (w + pads[1] + pads[3] - (kernel[1] - 1) * dilations[1] - 1) / strides[1] + 1
        guard oh > 0, ow > 0 else { throw fail("Conv output \(ow)×\(oh)") }
        var hwc = [Float](repeating: 0, count: input.count)
        for ch in 0..<c { for p in 0..<(h * w) { hwc[p * c + ch] = input.values[ch * h * w + p] } }
        var product = [Float](repeating: 0, count: oh * ow * weights.n)
        let zeros = [Float](repeating: 0, count: c)
        hwc.withUnsafeBufferPointer { pin in
            weights.values.withUnsafeBufferPointer { pw in
                weights.bias.withUnsafeBufferPointer { pb in
                    product.withUnsafeMutableBufferPointer { po in
                        knn_conv_indirect(
                            pin.baseAddress!, Int32(h), Int32(w), Int32(c), Int32(kernel[0]), Int32(kernel[1]), Int32(strides[0]),
                            Int32(strides[1]), Int32(dilations[0]), Int32(dilations[1]), Int32(pads[0]), Int32(pads[1]),
                            pw.baseAddress!, pb.baseAddress!, weights.n, po.baseAddress!, Int32(ow), 0, oh * ow, zeros,
                            knn_identity_activation())
                    }
                }
            }
        }
        var chw = [Float](repeating: 0, count: product.count)
        for p in 0..<(oh * ow) { for o in 0..<weights.n { chw[o * oh * ow + p] = product[p * weights.n + o] } }
        return Array(shape: [1, weights.n, oh, ow], values: chw)
    }

    /// A direct NCHW convolution (the few small ones after the image layers).
    private func convolution(_ node: ONNXModel.Node, _ x: [Array]) throws -> Array {
        let (input, weight) = (x[0], x[1])
        guard input.shape.count == 4, weight.shape.count == 4, (node.int("group") ?? 1) == 1 else { throw fail("Conv of \(input.shape)") }
        let (c, h, w) = (input.shape[1], input.shape[2], input.shape[3])
        let (oc, kh, kw) = (weight.shape[0], weight.shape[2], weight.shape[3])
        let pads = (node.ints("pads") ?? [0, 0, 0, 0]).map(Int.init)
        let strides = (node.ints("strides") ?? [1, 1]).map(Int.init)
        guard weight.shape[1] == c, pads.count == 4, strides.count == 2, pads.allSatisfy({ (0...64).contains($0) }),
            strides.allSatisfy({ (1...64).contains($0) })
        else { throw fail("Conv of \(input.shape) with \(weight.shape)") }
        let oh = (h + pads[0] + pads[2] - kh) / strides[0] + 1, ow = (w + pads[1] + pads[3] - kw) / strides[1] + 1
        let bias = x.count > 2 ? x[2].values : [Float](repeating: 0, count: oc)
        guard bias.count == oc, input.shape[0] == 1, oh > 0, ow > 0 else {
            throw fail("Conv bias or output of \(input.shape) with \(weight.shape)")
        }
        var out = [Float](repeating: 0, count: oc * oh * ow)
        for o in 0..<oc {
            for y in 0..<oh {
                for xx in 0..<ow {
                    var sum = bias[o]
                    for ci in 0..<c {
                        for ky in 0..<kh {
                            let iy = y * strides[0] - pads[0] + ky
                            guard iy >= 0, iy < h else { continue }
                            for kx in 0..<kw {
                                let ix = xx * strides[1] - pads[1] + kx
                                guard ix >= 0, ix < w else { continue }
                                sum += input.values[(ci * h + iy) * w + ix] * weight.values[((o * c + ci) * kh + ky) * kw + kx]
                            }
                        }
                    }
                    out[(o * oh + y) * ow + xx] = sum
                }
            }
        }
        return Array(shape: [1, oc, oh, ow], values: out)
    }
}
