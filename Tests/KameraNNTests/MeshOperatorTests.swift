import KameraCore
import KameraTestTiers
import Testing

@testable import KameraNN

@Suite("Operators of the attention face mesh: strided slices, scaling by one factor, region sampling", .tier(.unit))
struct MeshOperatorTests {
    @Test("STRIDED_SLICE takes every second column of rows 1–2, with and without masks")
    func stridedSlice() throws {
        let values = (0..<12).map(Float.init)  // [1, 3, 4]
        var g = OneOpGraph()
        let x = g.tensor([1, 3, 4]), y = g.tensor([1, 2, 2])
        let begin = g.tensor([3], ints: [0, 1, 0]), end = g.tensor([3], ints: [1, 3, 4]), strides = g.tensor([3], ints: [1, 1, 2])
        let slice = StridedSliceOperator(input: x, begin: begin, end: end, strides: strides, output: y)
        #expect(try g.run([slice], inputs: [(x, values)], output: y) == [4, 6, 8, 10])
        // Masked axes take the whole range whatever begin and end say; a negative end counts from the back.
        var h = OneOpGraph()
        let x2 = h.tensor([1, 3, 4]), y2 = h.tensor([1, 3, 2])
        let b2 = h.tensor([3], ints: [0, 2, 1]), e2 = h.tensor([3], ints: [1, 0, -1]), s2 = h.tensor([3], ints: [1, 1, 1])
        let masked = StridedSliceOperator(input: x2, begin: b2, end: e2, strides: s2, output: y2, beginMask: 2, endMask: 2)
        #expect(try h.run([masked], inputs: [(x2, values)], output: y2) == [1, 2, 5, 6, 9, 10])
        // A shape that disagrees with the model's is a typed error.
        var k = OneOpGraph()
        let x3 = k.tensor([1, 3, 4]), y3 = k.tensor([1, 3, 4])
        let b3 = k.tensor([3], ints: [0, 1, 0]), e3 = k.tensor([3], ints: [1, 3, 4]), s3 = k.tensor([3], ints: [1, 1, 2])
        #expect(throws: KameraError.self) {
            try k.run([StridedSliceOperator(input: x3, begin: b3, end: e3, strides: s3, output: y3)], inputs: [(x3, values)], output: y3)
        }
    }

    @Test("MUL of landmarks by one constant factor")
    func scalarMultiply() throws {
        var g = OneOpGraph()
        let x = g.tensor([1, 4, 3]), factor = g.tensor([1], floats: [0.25]), y = g.tensor([1, 4, 3])
        let values = (0..<12).map { Float($0) * 4 }
        let result = try g.run([MulOperator(x, factor, output: y, activation: .none)], inputs: [(x, values)], output: y)
        #expect(result == (0..<12).map(Float.init))
    }

    @Test("A region matrix of NaN or far outside the feature map samples zeros, never a crash")
    func samplingOutside() throws {
        for matrix: [Float] in [
            [.nan, 0, 0, 0, 0, .nan, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1],
            [1, 0, 0, 1e30, 0, 1, 0, -1e30, 0, 0, 1, 0, 0, 0, 0, 1],
        ] {
            var g = OneOpGraph()
            let features = g.tensor([1, 6, 6, 2]), m = g.tensor([1, 4, 4]), y = g.tensor([1, 4, 4, 2])
            let sample = TransformTensorBilinearOperator(input: features, matrix: m, output: y)
            let result = try g.run(
                [sample], inputs: [(features, [Float](repeating: 1, count: 72)), (m, matrix)], output: y)
            #expect(result == [Float](repeating: 0, count: 32))
        }
        // The identity samples the map's own cells (cell centres line up, no blur).
        var g = OneOpGraph()
        let features = g.tensor([1, 4, 4, 1]), m = g.tensor([1, 4, 4]), y = g.tensor([1, 4, 4, 1])
        let values = (0..<16).map(Float.init)
        let identity: [Float] = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]
        let result = try g.run(
            [TransformTensorBilinearOperator(input: features, matrix: m, output: y)], inputs: [(features, values), (m, identity)],
            output: y)
        #expect(result == values)
    }
}
