import CKameraNNKernels
import Dispatch
import KameraCore

/// Runs a `NeuralNetwork`: owns the activation arena (allocated once), so `invoke()` does
/// not allocate. Write the input through `withInput`, call `invoke()`, read the outputs.
/// Not thread-safe: use one session per thread (they share the network's weights).
public final class InferenceSession {
    public let network: NeuralNetwork
    /// How many threads the large kernels are split across.
    public let threads: Int
    private let arena: FloatStorage
    private let scratch: FloatStorage

    init(network: NeuralNetwork, threads: Int) {
        self.network = network
        self.threads = max(1, threads)
        arena = FloatStorage(count: network.compiled.arenaSize + MemoryPlan.slack)
        scratch = FloatStorage(count: network.compiled.scratchSize + MemoryPlan.slack)
        for (offset, values) in network.compiled.constants {
            (arena.pointer + offset).update(from: values, count: values.count)
        }
    }

    /// Gives mutable access to input `index` (NHWC floats) to fill in place.
    public func withInput<R>(_ index: Int = 0, _ body: (UnsafeMutableBufferPointer<Float>) throws -> R) rethrows -> R {
        let slot = network.compiled.inputs[index]
        return try body(UnsafeMutableBufferPointer(start: arena.pointer + slot.offset, count: slot.count))
    }

    /// Output `index` of the last `invoke()`; valid until the next one.
    public func output(_ index: Int) -> UnsafeBufferPointer<Float> {
        let slot = network.compiled.outputs[index]
        return UnsafeBufferPointer(start: arena.pointer + slot.offset, count: slot.count)
    }

    /// Runs the network on the current input.
    public func invoke() {
        let base = arena.pointer, weights = network.compiled.weights.pointer
        for step in network.compiled.steps {
            execute(step, base: base, weights: weights)
        }
    }

    /// Time per kind of kernel over `runs` invokes (milliseconds per invoke), for tuning.
    public func profile(runs: Int = 50) -> [(kernel: String, milliseconds: Double)] {
        let base = arena.pointer, weights = network.compiled.weights.pointer
        var totals: [String: UInt64] = [:]
        for _ in 0..<runs {
            for step in network.compiled.steps {
                let start = DispatchTime.now().uptimeNanoseconds
                execute(step, base: base, weights: weights)
                totals[step.kernelName, default: 0] += DispatchTime.now().uptimeNanoseconds - start
            }
        }
        return totals.map { ($0.key, Double($0.value) / 1e6 / Double(runs)) }.sorted { $0.1 > $1.1 }
    }

    /// Convenience: copies `input` in, runs, copies every output out.
    public func run(_ input: [Float]) throws -> [[Float]] {
        let expected = network.compiled.inputs[0].count
        guard input.count == expected else {
            throw KameraError.invalidArgument("model input needs \(expected) values, got \(input.count)")
        }
        withInput { $0.baseAddress!.update(from: input, count: input.count) }
        invoke()
        return network.compiled.outputs.indices.map { Array(output($0)) }
    }

    private func activation(_ planned: PlannedActivation, weights: UnsafeMutablePointer<Float>) -> knn_activation {
        knn_activation(kind: planned.kind, alpha: planned.alpha.map { UnsafePointer(weights + $0) })
    }

    /// Splits `rows` into at most `threads` contiguous ranges run concurrently.
    private func parallelRows(_ rows: Int, minimumPerThread: Int, _ body: @Sendable (Int, Int) -> Void) {
        let parts = min(threads, max(1, rows / max(minimumPerThread, 1)))
        if parts <= 1 { body(0, rows); return }
        DispatchQueue.concurrentPerform(iterations: parts) { part in
            body(rows * part / parts, rows * (part + 1) / parts)
        }
    }

    private func execute(_ step: PlannedStep, base: UnsafeMutablePointer<Float>, weights: UnsafeMutablePointer<Float>) {
        // Raw pointers cross into the concurrent closures: each range writes disjoint rows.
        nonisolated(unsafe) let base = base
        nonisolated(unsafe) let weights = weights
        switch step {
        case .pointwise(let input, let rows, let k, let w, let bias, let n, let output, let act):
            nonisolated(unsafe) let a = activation(act, weights: weights)
            parallelRows(rows, minimumPerThread: 64) { r0, r1 in
                knn_gemm(base + input + r0 * k, r1 - r0, k, k, weights + w, weights + bias, n,
                         base + output + r0 * n, n, a)
            }
        case .convolution(let g, let w, let bias, let n, let act):
            let k = g.kernelHeight * g.kernelWidth * g.inputChannels
            let col = scratch.pointer
            nonisolated(unsafe) let colPointer = col
            nonisolated(unsafe) let a = activation(act, weights: weights)
            parallelRows(g.outputHeight, minimumPerThread: 4) { y0, y1 in
                knn_im2col(base + g.input, Int32(g.inputHeight), Int32(g.inputWidth), Int32(g.inputChannels),
                           Int32(g.kernelHeight), Int32(g.kernelWidth), Int32(g.strideH), Int32(g.strideW),
                           Int32(g.dilationH), Int32(g.dilationW), Int32(g.padTop), Int32(g.padLeft),
                           Int32(y0), Int32(y1), Int32(g.outputWidth), colPointer + y0 * g.outputWidth * k)
                knn_gemm(colPointer + y0 * g.outputWidth * k, (y1 - y0) * g.outputWidth, k, k,
                         weights + w, weights + bias, n, base + g.output + y0 * g.outputWidth * n, n, a)
            }
        case .depthwise(let g, let w, let bias, let act):
            nonisolated(unsafe) let a = activation(act, weights: weights)
            parallelRows(g.outputHeight, minimumPerThread: 4) { y0, y1 in
                knn_depthwise(base + g.input, Int32(g.inputHeight), Int32(g.inputWidth), Int32(g.inputChannels),
                              weights + w, weights + bias, Int32(g.kernelHeight), Int32(g.kernelWidth),
                              Int32(g.strideH), Int32(g.strideW), Int32(g.dilationH), Int32(g.dilationW),
                              Int32(g.padTop), Int32(g.padLeft), base + g.output, Int32(y0), Int32(y1),
                              Int32(g.outputWidth), a)
            }
        case .maxPool(let g, let act):
            knn_max_pool(base + g.input, Int32(g.inputHeight), Int32(g.inputWidth), Int32(g.inputChannels),
                         Int32(g.kernelHeight), Int32(g.kernelWidth), Int32(g.strideH), Int32(g.strideW),
                         Int32(g.padTop), Int32(g.padLeft), base + g.output, 0, Int32(g.outputHeight),
                         Int32(g.outputWidth), activation(act, weights: weights))
        case .add(let a, let b, let output, let pixels, let channels, let act):
            knn_add(base + a, base + b, base + output, pixels, channels, activation(act, weights: weights))
        case .activate(let input, let output, let pixels, let channels, let act):
            knn_activate(base + input, base + output, pixels, channels, activation(act, weights: weights))
        case .logistic(let input, let output, let count):
            knn_logistic(base + input, base + output, count)
        case .pad(let input, let inShape, let before, let outShape, let output):
            knn_pad(base + input, inShape, before, outShape, base + output)
        case .copy(let input, let output, let count):
            if input != output { (base + output).update(from: base + input, count: count) }
        case .concatenate(let inputs, let outer, let output):
            var destination = base + output
            for o in 0..<outer {
                for (offset, inner) in inputs {
                    destination.update(from: base + offset + o * inner, count: inner)
                    destination += inner
                }
            }
        case .resizeBilinear(let input, let ih, let iw, let c, let output, let oh, let ow, let align, let half):
            knn_resize_bilinear(base + input, Int32(ih), Int32(iw), Int32(c), base + output, Int32(oh), Int32(ow),
                                align ? 1 : 0, half ? 1 : 0)
        }
    }
}
