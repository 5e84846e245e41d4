import KameraCore

/// A model ready to run: kernel steps, packed weights and the arena layout. Built once per
/// model; sessions only allocate their arena from it.
struct CompiledNetwork: Sendable {
    var steps: [any PlannedKernel]
    var weights: FloatStorage
    var arenaSize: Int
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

/// Turns a `ModelGraph` into a `CompiledNetwork`: folds constants (fp16 DEQUANTIZE), turns a
/// zero PAD before a convolution into its padding, fuses activations into the op before them
/// and skip connections' ADDs into the 1×1 convolution before them, plans the arena, then lets
/// each operator check its shapes and pack its weights (`GraphOperator.plan`). Optionally
/// resizes a fully convolutional model's input first, and leaves out the operations only
/// unused outputs need.
struct NetworkCompiler {
    private var tensors: [GraphTensor]
    private let graph: ModelGraph
    private let path: String
    /// A new input height and width for a fully convolutional model (`InputResizing`).
    private let inputSize: (height: Int, width: Int)?
    /// The graph's outputs the network computes (all of them by default).
    private let outputs: [Int]

    /// - Parameter keptOutputs: Positions in `graph.outputs` of the outputs to compute, in the
    ///   order the compiled network lists them; nil keeps every output.
    init(graph: ModelGraph, path: String, inputSize: (height: Int, width: Int)? = nil, keptOutputs: [Int]? = nil) {
        self.graph = graph
        tensors = graph.tensors
        self.path = path
        self.inputSize = inputSize
        outputs = keptOutputs.map { $0.map { graph.outputs[$0] } } ?? graph.outputs
    }

    private func fail(_ reason: String) -> KameraError { .invalidModel(path: path, reason: reason) }

    /// `ops` with each zero PAD of height and width whose only reader is a VALID convolution
    /// made that convolution's explicit padding. The kernels read zeros wherever the window
    /// leaves the input, so the result is the same and the padded copy is never written:
    /// BlazePose's stride-2 blocks pad before their depthwise step, a tenth of the landmark
    /// model's time as separate copies.
    private func absorbingSpatialPadding(_ ops: [any GraphOperator]) -> [any GraphOperator] {
        var readers: [Int: [Int]] = [:]
        for (index, op) in ops.enumerated() { for t in op.inputs { readers[t, default: []].append(index) } }
        var result = ops
        var absorbed = Set<Int>()
        for (index, op) in ops.enumerated() {
            guard let pad = op as? PadOperator, !outputs.contains(pad.output),
                let p = tensors[pad.paddings].ints, p.count == 8, p.allSatisfy({ $0 >= 0 }),
                p[0] == 0, p[1] == 0, p[6] == 0, p[7] == 0,
                let reader = readers[pad.output], reader.count == 1,
                var convolution = result[reader[0]] as? any PaddingAbsorbing,
                convolution.input == pad.output, convolution.window.padding == .valid
            else { continue }
            convolution.input = pad.input
            convolution.window.padding = .explicit(top: Int(p[2]), left: Int(p[4]), bottom: Int(p[3]), right: Int(p[5]))
            result[reader[0]] = convolution
            absorbed.insert(index)
        }
        return result.indices.filter { !absorbed.contains($0) }.map { result[$0] }
    }

    /// `ops` with each ADD of a skip connection absorbed by the 1×1 convolution whose result
    /// it alone reads: the convolution adds the other operand in its epilogue and takes the
    /// ADD's activation and output, so the sum is written once and never read back (residual
    /// blocks end so in every MediaPipe model: their ADDs were 5–11 % of the face detector's,
    /// palm detector's and landmark models' time). The fused step runs where the ADD ran, when
    /// both operands exist; nothing between read the convolution's result. A PAD that widened
    /// the skip connection with zero channels, read by the ADD alone, goes too.
    private func absorbingResidualAdds(_ ops: [any GraphOperator]) -> [any GraphOperator] {
        var readers: [Int: Int] = [:]
        for op in ops { for t in op.inputs { readers[t, default: 0] += 1 } }
        var result: [(any GraphOperator)?] = ops
        for (index, op) in ops.enumerated() {
            guard var convolution = op as? Conv2DOperator, convolution.activation == .none, convolution.residual == nil,
                convolution.isPointwise(tensors), readers[convolution.output] == 1, !outputs.contains(convolution.output),
                let addIndex = ops.indices.first(where: { $0 > index && ops[$0].inputs.contains(convolution.output) }),
                let add = ops[addIndex] as? AddOperator, add.a != add.b
            else { continue }
            var skip = add.a == convolution.output ? add.b : add.a
            let shape = tensors[convolution.output].shape
            guard tensors[skip].shape == shape, tensors[add.output].shape == shape, tensors[skip].floats == nil else { continue }
            // A skip connection widened by zero channels at the end (BlazeFace's blocks that
            // add channels): the convolution reads the narrower tensor and adds nothing past it.
            if readers[skip] == 1, !outputs.contains(skip),
                let padIndex = ops.indices.last(where: { $0 < addIndex && ops[$0].output == skip }),
                let pad = ops[padIndex] as? PadOperator, result[padIndex] != nil,
                let p = tensors[pad.paddings].ints, p.count == 8, p.dropLast().allSatisfy({ $0 == 0 }), p[7] > 0,
                tensors[pad.input].shape.count == 4
            {
                result[padIndex] = nil
                skip = pad.input
            }
            convolution.residual = skip
            convolution.output = add.output
            convolution.activation = add.activation
            result[index] = nil
            result[addIndex] = convolution
        }
        return result.compactMap { $0 }
    }

    mutating func compile() throws -> CompiledNetwork {
        // 1. Constant folding: fp16 weights are stored behind DEQUANTIZE ops.
        var remaining: [any GraphOperator] = []
        for op in graph.operations where try !op.fold(&tensors) {
            remaining.append(op)
        }
        // Operations whose results reach no kept output are left out (BlazePose's landmark
        // model spends a third of its time on a person mask the body pose never reads).
        var needed = Set(outputs)
        remaining = remaining.reversed().filter { op in
            guard needed.contains(op.output) else { return false }
            needed.formUnion(op.inputs)
            return true
        }.reversed()
        if let inputSize {
            guard graph.inputs.count == 1 else { throw fail("only a model with one input can be resized") }
            tensors = try InputResizing.resize(
                tensors, input: graph.inputs[0], height: inputSize.height, width: inputSize.width, path: path)
        }

        remaining = absorbingSpatialPadding(remaining)

        // 2. Activation fusion: an op whose only consumer is an activation writes the
        //    activation's output directly and applies it in its epilogue.
        var consumers: [Int: Int] = [:]
        for op in remaining { for t in op.inputs { consumers[t, default: 0] += 1 } }
        for t in outputs { consumers[t, default: 0] += 1 }
        var scheduled: [any GraphOperator] = []
        var fusedAway = Set<Int>()
        for (i, op) in remaining.enumerated() where !fusedAway.contains(i) {
            guard var producer = op as? any ActivationFusing else {
                scheduled.append(op)
                continue
            }
            // A chain (PP-OCR: hard-swish, then a scale, then a shift) is absorbed step by step.
            while consumers[producer.output] == 1,
                let j = remaining.indices.first(where: { $0 > i && remaining[$0].inputs.first == producer.output }),
                let activation = remaining[j] as? any FusibleActivation,
                let epilogue = activation.epilogue(following: producer.activation, after: tensors[producer.output], tensors: tensors)
            {
                producer.activation = epilogue
                producer.output = activation.output
                fusedAway.insert(j)
            }
            scheduled.append(producer)
        }

        scheduled = absorbingResidualAdds(scheduled)

        // 3. Lifetimes and the arena plan.
        var first: [Int: Int] = [:], last: [Int: Int] = [:]
        var dataConstants = Set<Int>()
        for t in graph.inputs { first[t] = -1; last[t] = -1 }
        for (s, op) in scheduled.enumerated() {
            for t in op.dataInputs {
                if tensors[t].floats != nil {
                    dataConstants.insert(t)
                } else if first[t] == nil {
                    throw fail("tensor \(tensors[t].name) is read before it is written")
                }
                last[t] = s
            }
            first[op.output] = first[op.output] ?? s
            last[op.output] = max(last[op.output] ?? s, s)
        }
        for t in dataConstants { first[t] = -1; last[t] = Int.max }
        for t in outputs {
            guard first[t] != nil else { throw fail("output \(tensors[t].name) is never written") }
            last[t] = Int.max
        }
        for t in first.keys {
            guard tensors[t].elementType == .float32 || tensors[t].floats != nil else {
                throw fail("tensor \(tensors[t].name) is not float32")
            }
        }
        let plan = MemoryPlan(
            first.keys.map {
                MemoryPlan.Request(tensor: $0, size: tensors[$0].elementCount, firstStep: first[$0]!, lastStep: last[$0]!)
            })

        // 4. Steps: each operator checks its shapes and packs its weights.
        var planner = StepPlanner(tensors: tensors, offsets: plan.offsets, path: path)
        let steps = try scheduled.map { try $0.plan(&planner) }

        let storage = FloatStorage(count: planner.packed.count + MemoryPlan.slack)
        storage.pointer.update(from: planner.packed, count: planner.packed.count)
        func slot(_ t: Int) -> TensorSlot { TensorSlot(name: tensors[t].name, shape: tensors[t].shape, offset: plan.offsets[t]!) }
        return CompiledNetwork(
            steps: steps, weights: storage, arenaSize: plan.arenaSize,
            inputs: graph.inputs.map(slot), outputs: outputs.map(slot),
            constants: dataConstants.map { (plan.offsets[$0]!, tensors[$0].floats!) })
    }
}
