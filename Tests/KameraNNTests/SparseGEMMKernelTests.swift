import CKameraNNKernels
import KameraTestTiers
import Testing

@testable import KameraNN

/// `knn_sparse_gemm` with weights packed by `StepPlanner.packSparsePointwise`, against a plain
/// loop over the dense weights: row counts that leave a partial tile of 32, channel counts that
/// are not multiples of 16, several passes over the input channels, output channels with no
/// non-zero weight at all, a residual with fewer channels than the output (a skip connection
/// padded with zeros), and the per-channel PReLU and ReLU6 epilogues.
@Suite(.tier(.unit))
struct SparseGEMMKernelTests {
    struct Shape: Sendable, CustomStringConvertible {
        var rows: Int, inputs: Int, outputs: Int, residualChannels: Int
        var description: String { "\(rows) rows, \(inputs) → \(outputs), residual \(residualChannels)" }
    }

    static let shapes = [
        Shape(rows: 70, inputs: 144, outputs: 24, residualChannels: 24),
        Shape(rows: 33, inputs: 1152, outputs: 192, residualChannels: 0),
        Shape(rows: 5, inputs: 250, outputs: 37, residualChannels: 20),
        Shape(rows: 96, inputs: 401, outputs: 19, residualChannels: 0),
    ]

    struct Problem {
        let shape: Shape
        var input: [Float], weights: [Float], bias: [Float], alpha: [Float], residual: [Float]

        init(_ s: Shape) {
            shape = s
            var random = SystemRandomNumberGenerator()
            // 16 floats of slack: the kernel reads whole 16-channel blocks (knn_kernels.h).
            input = (0..<(s.rows * s.inputs + 16)).map { _ in Float.random(in: -2...2, using: &random) }
            weights = (0..<(s.outputs * s.inputs)).map { i in
                // Output channel 3 has no weight; the rest a quarter of theirs.
                i / s.inputs == 3 || Double.random(in: 0..<1, using: &random) >= 0.25
                    ? 0 : Float.random(in: -1...1, using: &random) / 8
            }
            let padded = (s.outputs + 15) / 16 * 16
            bias = (0..<padded).map { $0 < s.outputs ? Float.random(in: -1...1, using: &random) : 0 }
            alpha = (0..<padded).map { _ in Float.random(in: 0...0.5, using: &random) }
            residual = (0..<(s.rows * s.residualChannels + 16)).map { _ in Float.random(in: -1...1, using: &random) }
        }

        func reference(_ activation: (Float, Int) -> Float) -> [Float] {
            let s = shape
            var out = [Float](repeating: 0, count: s.rows * s.outputs)
            for r in 0..<s.rows {
                for o in 0..<s.outputs {
                    var sum = bias[o]
                    for i in 0..<s.inputs { sum += input[r * s.inputs + i] * weights[o * s.inputs + i] }
                    if o < s.residualChannels { sum += residual[r * s.residualChannels + o] }
                    out[r * s.outputs + o] = activation(sum, o)
                }
            }
            return out
        }

        /// Packed as a network's plan packs it, run in two row ranges split mid-tile, as two
        /// threads run it.
        func sparse(_ kind: knn_activation_kind) throws -> [Float] {
            let s = shape
            var planner = StepPlanner(tensors: [], offsets: [:], path: "test")
            let packedAt = planner.packSparsePointwise(weights, inputs: s.inputs, outputs: s.outputs)
            let offset = try #require(packedAt)
            let packed = planner.packed
            var out = [Float](repeating: .nan, count: s.rows * s.outputs)
            let split = s.rows / 2 + 5
            let rc = s.residualChannels
            let (sparseWeights, alpha, bias) = (Array(packed[offset...]), alpha, bias)
            alpha.withUnsafeBufferPointer { alpha in
                let act = knn_activation(kind: kind, alpha: alpha.baseAddress, scale: 1, shift: 0)
                out.withUnsafeMutableBufferPointer { out in
                    for (r0, r1) in [(0, min(split, s.rows)), (min(split, s.rows), s.rows)] where r1 > r0 {
                        knn_sparse_gemm(
                            Array(input[(r0 * s.inputs)...]), r1 - r0, s.inputs, s.inputs, sparseWeights,
                            SparsePointwiseWeights.channelsPerPass, bias, s.outputs, out.baseAddress! + r0 * s.outputs,
                            s.outputs, rc > 0 ? Array(residual[(r0 * rc)...]) : nil, rc, act)
                    }
                }
            }
            return out
        }
    }

    /// Written as "not close" so an output left unwritten (NaN) counts too.
    static func differing(_ a: [Float], _ b: [Float]) -> Int { zip(a, b).filter { !(abs($0 - $1) < 1e-4) }.count }

    @Test("Sparse 1×1 convolutions with PReLU and ReLU6 equal the plain loop", arguments: shapes)
    func matchesPlainLoop(shape: Shape) throws {
        let problem = Problem(shape)
        let prelu = problem.reference { x, o in x < 0 ? x * problem.alpha[o] : x }
        #expect(Self.differing(try problem.sparse(KNN_ACT_PRELU), prelu) == 0)
        let relu6 = problem.reference { x, _ in min(max(x, 0), 6) }
        #expect(Self.differing(try problem.sparse(KNN_ACT_RELU6), relu6) == 0)
        // Not trivially zero: the weights leave real sums on both sides of the activations' bends.
        #expect(prelu.contains { $0 < -0.01 } && relu6.contains { $0 > 0.5 })
    }

    @Test("Only weights sparse enough, with enough non-zeros an output, are packed sparse")
    func packingRule() {
        var planner = StepPlanner(tensors: [], offsets: [:], path: "test")
        let dense = [Float](repeating: 0.5, count: 64 * 32)
        #expect(planner.packSparsePointwise(dense, inputs: 64, outputs: 32) == nil)
        // A quarter non-zero but only 6 an output: the turns cost more than the zeros save.
        let few = (0..<(24 * 32)).map { $0 % 4 == 0 ? Float(1) : 0 }
        #expect(planner.packSparsePointwise(few, inputs: 24, outputs: 32) == nil)
        let many = (0..<(96 * 32)).map { $0 % 4 == 0 ? Float(1) : 0 }
        #expect(planner.packSparsePointwise(many, inputs: 96, outputs: 32) != nil)
    }
}
