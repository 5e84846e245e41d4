import CKameraNNKernels

/// DEPTH_TO_SPACE (NHWC, DCR order as TFLite): each pixel's channels become a block×block
/// patch of the output; the pose detector's upsampling.
struct DepthToSpaceOperator: GraphOperator {
    static let builtinCode: Int32 = 5
    static let name = "DEPTH_TO_SPACE"

    var input: Int, output: Int, blockSize: Int

    init(input: Int, output: Int, blockSize: Int) { (self.input, self.output, self.blockSize) = (input, output, blockSize) }

    init(_ record: OperatorRecord) throws {
        self.init(input: try record.input(0), output: record.output, blockSize: try record.int(0))
    }

    var inputs: [Int] { [input] }

    func plan(_ planner: inout StepPlanner) throws -> any PlannedKernel {
        let (h, w, c) = try planner.image(input)
        let b = blockSize
        guard b >= 1, c % (b * b) == 0, planner.tensors[output].shape == [1, h * b, w * b, c / (b * b)] else {
            throw planner.fail("DEPTH_TO_SPACE by \(b) of \(planner.tensors[input].shape) cannot give \(planner.tensors[output].shape)")
        }
        return DepthToSpaceKernel(input: planner.arena(input), output: planner.arena(output), height: h, width: w, channels: c, block: b)
    }
}

struct DepthToSpaceKernel: PlannedKernel {
    var input: Int, output: Int, height: Int, width: Int, channels: Int, block: Int
    var kernelName: String { "depth to space" }

    func run(_ context: KernelContext) {
        knn_depth_to_space(context.arena + input, Int32(height), Int32(width), Int32(channels), Int32(block), context.arena + output)
    }
}
