import CKameraNNKernels

/// MEAN over an image's height and width (axes 1 and 2, with or without kept dimensions):
/// the global pooling before a classifier or a squeeze-and-excitation gate.
struct MeanOperator: GraphOperator {
    static let builtinCode: Int32 = 40
    static let name = "MEAN"

    var input: Int, axes: Int, output: Int

    init(input: Int, axes: Int, output: Int) { (self.input, self.axes, self.output) = (input, axes, output) }

    init(_ record: OperatorRecord) throws {
        self.init(input: try record.input(0), axes: try record.input(1), output: record.output)
    }

    var inputs: [Int] { [input, axes] }
    var dataInputs: [Int] { [input] }

    func plan(_ planner: inout StepPlanner) throws -> any PlannedKernel {
        let (height, width, channels) = try planner.image(input)
        guard let axes = planner.tensors[axes].ints, Set(axes) == [1, 2], axes.count == 2 else {
            throw planner.fail("MEAN is supported over axes 1 and 2 (height and width) only")
        }
        guard planner.tensors[output].elementCount == channels else {
            throw planner.fail("MEAN output \(planner.tensors[output].shape) is not one value per channel")
        }
        return SpatialMeanKernel(
            input: planner.arena(input), pixels: height * width, channels: channels, output: planner.arena(output))
    }
}

struct SpatialMeanKernel: PlannedKernel {
    var input: Int, pixels: Int, channels: Int, output: Int
    var kernelName: String { "mean" }

    func run(_ context: KernelContext) { knn_spatial_mean(context.arena + input, pixels, channels, context.arena + output) }
}
