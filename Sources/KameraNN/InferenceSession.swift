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

    init(network: NeuralNetwork, threads: Int) {
        self.network = network
        self.threads = max(1, threads)
        arena = FloatStorage(count: network.compiled.arenaSize + MemoryPlan.slack)
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
        let context = context
        for step in network.compiled.steps { step.run(context) }
    }

    /// Time per kind of kernel over `runs` invokes (milliseconds per invoke), slowest first,
    /// for tuning; with `bySteps`, per step (named by its position and kernel).
    public func profile(runs: Int = 50, bySteps: Bool = false) -> [(kernel: String, milliseconds: Double)] {
        let context = context
        var totals: [String: UInt64] = [:]
        for _ in 0..<runs {
            for (index, step) in network.compiled.steps.enumerated() {
                let start = DispatchTime.now().uptimeNanoseconds
                step.run(context)
                let key = bySteps ? "step \(index) \(step.kernelName)" : step.kernelName
                totals[key, default: 0] += DispatchTime.now().uptimeNanoseconds - start
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

    private var context: KernelContext {
        KernelContext(arena: arena.pointer, weights: network.compiled.weights.pointer, threads: threads)
    }
}
