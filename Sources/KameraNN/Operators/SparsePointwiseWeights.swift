/// When a 1×1 convolution's weights are packed for `knn_sparse_gemm` instead of the dense GEMM:
/// models stored sparse (BlazePose's detector keeps a quarter of its pointwise weights) run
/// those layers on their non-zero weights alone.
enum SparsePointwiseWeights {
    /// The largest share of non-zero weights packed sparse. The sparse kernel makes about one
    /// multiply-add of 16 lanes a cycle (two loads each) against the dense GEMM's 1.6, and
    /// pays for turning each tile of pixels channel-major and back: at a quarter (BlazePose's
    /// detector) it takes 0.5–0.7× the dense time; at 0.36 (a 192 × 1152 layer of the hand
    /// landmark model, zeros stored dense) 1.04×.
    static let maximumDensity = 0.3
    /// The fewest non-zero weights an output channel must have on average: below it the turns
    /// cost more than the skipped zeros save (measured on an Intel Xeon with AVX-512 and with
    /// the AVX2 kernels: 6 a channel ran 1.07× the dense GEMM's time, 10 0.86–0.97×, 16 0.80×,
    /// 36–60 0.52–0.67×).
    static let minimumNonzerosPerOutput = 12
    /// Input channels a pass of the kernel sums over: the tile's rows for 192 channels (24 KiB)
    /// stay in a 32 KiB L1 while the non-zero weights pick them at random. One pass over 1152
    /// channels ran 1.3× as long (Intel Xeon, AVX-512).
    static let channelsPerPass = 192

    /// Whether `[outputs][inputs]` weights with `nonzeros` non-zero values go sparse.
    static func worthIt(nonzeros: Int, inputs: Int, outputs: Int) -> Bool {
        guard inputs > 0, outputs > 0 else { return false }
        let density = Double(nonzeros) / Double(inputs * outputs)
        return density <= maximumDensity && nonzeros >= minimumNonzerosPerOutput * outputs
    }
}

extension StepPlanner {
    /// Packs 1×1 weights (`weights[output · inputs + input]`) in `knn_sparse_gemm`'s layout —
    /// for each pass over `SparsePointwiseWeights.channelsPerPass` input channels, for each
    /// output channel, its count of non-zero weights there, then (input channel, weight)
    /// pairs; counts and channels as Int32 bit patterns — when `SparsePointwiseWeights` says
    /// they are sparse enough; returns the offset, or nil to pack them dense.
    mutating func packSparsePointwise(_ weights: [Float], inputs: Int, outputs: Int) -> Int? {
        let nonzeros = weights.reduce(0) { $0 + ($1 == 0 ? 0 : 1) }
        guard weights.count == inputs * outputs,
            SparsePointwiseWeights.worthIt(nonzeros: nonzeros, inputs: inputs, outputs: outputs)
        else { return nil }
        let pass = SparsePointwiseWeights.channelsPerPass
        var layout: [Float] = []
        layout.reserveCapacity(outputs * ((inputs + pass - 1) / pass) + 2 * nonzeros)
        for first in stride(from: 0, to: inputs, by: pass) {
            for output in 0..<outputs {
                let row = weights[(output * inputs + first)..<(output * inputs + min(first + pass, inputs))]
                layout.append(Float(bitPattern: UInt32(truncatingIfNeeded: row.reduce(0) { $0 + ($1 == 0 ? 0 : 1) })))
                for (input, weight) in zip(first..., row) where weight != 0 {
                    layout.append(Float(bitPattern: UInt32(truncatingIfNeeded: input)))
                    layout.append(weight)
                }
            }
        }
        return appendPacked(count: layout.count) { layout[$0] }
    }
}
