import CKameraNNKernels

/// RESIZE_BILINEAR with TFLite's coordinate rules (align corners, half-pixel centres).
struct ResizeBilinearOperator: GraphOperator {
    static let builtinCode: Int32 = 23
    static let name = "RESIZE_BILINEAR"

    var input: Int, output: Int
    var alignCorners: Bool, halfPixelCenters: Bool

    init(input: Int, output: Int, alignCorners: Bool, halfPixelCenters: Bool) {
        (self.input, self.output, self.alignCorners, self.halfPixelCenters) = (input, output, alignCorners, halfPixelCenters)
    }

    init(_ record: OperatorRecord) throws {
        // Input 1 is the size tensor; the output shape already says it.
        self.init(
            input: try record.input(0), output: record.output, alignCorners: try record.bool(2),
            halfPixelCenters: try record.bool(3))
    }

    var inputs: [Int] { [input] }

    func plan(_ planner: inout StepPlanner) throws -> any PlannedKernel {
        let (ih, iw, ic) = try planner.image(input)
        let (oh, ow, oc) = try planner.image(output)
        guard oc == ic else { throw planner.fail("RESIZE_BILINEAR changes channels") }
        return ResizeBilinearKernel(
            input: planner.arena(input), inputHeight: ih, inputWidth: iw, channels: ic,
            output: planner.arena(output), outputHeight: oh, outputWidth: ow,
            alignCorners: alignCorners, halfPixelCenters: halfPixelCenters)
    }
}

struct ResizeBilinearKernel: PlannedKernel {
    var input: Int, inputHeight: Int, inputWidth: Int, channels: Int
    var output: Int, outputHeight: Int, outputWidth: Int
    var alignCorners: Bool, halfPixelCenters: Bool
    var kernelName: String { "resize" }

    func run(_ context: KernelContext) {
        knn_resize_bilinear(
            context.arena + input, Int32(inputHeight), Int32(inputWidth), Int32(channels),
            context.arena + output, Int32(outputHeight), Int32(outputWidth),
            alignCorners ? 1 : 0, halfPixelCenters ? 1 : 0)
    }
}
