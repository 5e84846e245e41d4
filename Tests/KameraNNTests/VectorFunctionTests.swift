import CKameraNNKernels
import Foundation
import KameraTestTiers
import Testing

/// The kernels built on the vector exponential (logistic, softmax) and the spatial mean,
/// against double-precision loops, over the ranges models produce and past them.
@Suite(.tier(.unit))
struct VectorFunctionTests {
    @Test("LOGISTIC equals 1 / (1 + e^−x) from −100 to 100, saturating without overflow")
    func logistic() {
        // 16 slack floats after the input, as the arena guarantees.
        let count = 4001
        let input = (0..<count).map { Float($0 - 2000) / 20 } + [Float](repeating: 0, count: 16)
        var output = [Float](repeating: .nan, count: count + 16)
        knn_logistic(input, &output, count)
        var worst = 0.0
        for i in 0..<count {
            let x = Double(input[i])
            let expected: Double = 1 / (1 + exp(-x))
            worst = max(worst, abs(Double(output[i]) - expected))
        }
        #expect(worst < 1e-6, "worst absolute error \(worst)")
        #expect(output[0] >= 0 && output[count - 1] <= 1)
    }

    @Test("Softmax of rows equals the double-precision one, for large logits and lengths off the vector width")
    func softmax() {
        var seed: UInt64 = 5
        for n in [1, 15, 16, 37, 6625] {
            let rows = 3
            var values = randomValues(rows * n, seed: &seed).map { $0 * 30 }
            values[0] = 1000  // a logit far above the rest
            let input = values
            knn_softmax_rows(input, &values, rows, n)
            for r in 0..<rows {
                let row = input[(r * n)..<((r + 1) * n)].map(Double.init)
                let peak = row.max()!
                let total = row.map { exp($0 - peak) }.reduce(0, +)
                let worst = row.indices.map { abs(Double(values[r * n + $0]) - exp(row[$0] - peak) / total) }.max()!
                #expect(worst < 1e-6, "n \(n) row \(r): worst absolute error \(worst)")
            }
        }
    }

    @Test("MEAN over 20 000 pixels of 37 channels keeps its low digits")
    func spatialMean() {
        let (pixels, channels) = (20_000, 37)
        var seed: UInt64 = 9
        let input = randomValues(pixels * channels, seed: &seed).map { $0 + 1000 } + [Float](repeating: 0, count: 16)
        var output = [Float](repeating: .nan, count: channels)
        knn_spatial_mean(input, pixels, channels, &output)
        for k in 0..<channels {
            let expected = stride(from: k, to: pixels * channels, by: channels).map { Double(input[$0]) }.reduce(0, +) / Double(pixels)
            #expect(abs(Double(output[k]) - expected) < 1e-4, "channel \(k): \(output[k]) against \(expected)")
        }
    }
}
