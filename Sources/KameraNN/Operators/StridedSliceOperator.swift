/// STRIDED_SLICE with constant begin, end and strides (positive), begin and end masks, up to
/// four dimensions. The attention face mesh's one use copies its mesh output whole; any slice
/// of that kind runs, others (ellipsis, new or shrunk axes, negative strides) are a typed error.
struct StridedSliceOperator: GraphOperator {
    static let builtinCode: Int32 = 45
    static let name = "STRIDED_SLICE"

    var input: Int, begin: Int, end: Int, strides: Int, output: Int
    var beginMask: Int, endMask: Int, unsupportedMasks: Int

    init(input: Int, begin: Int, end: Int, strides: Int, output: Int, beginMask: Int = 0, endMask: Int = 0) {
        (self.input, self.begin, self.end, self.strides, self.output) = (input, begin, end, strides, output)
        (self.beginMask, self.endMask, unsupportedMasks) = (beginMask, endMask, 0)
    }

    init(_ record: OperatorRecord) throws {
        (input, begin, end, strides) = (try record.input(0), try record.input(1), try record.input(2), try record.input(3))
        output = record.output
        beginMask = try record.int(0)
        endMask = try record.int(1)
        unsupportedMasks = try record.int(2) | record.int(3) | record.int(4)
    }

    var inputs: [Int] { [input, begin, end, strides] }
    var dataInputs: [Int] { [input] }

    func plan(_ planner: inout StepPlanner) throws -> any PlannedKernel {
        let shape = planner.tensors[input].shape
        guard unsupportedMasks == 0, shape.count <= 4,
            let starts = planner.tensors[begin].ints, let stops = planner.tensors[end].ints,
            let steps = planner.tensors[strides].ints,
            starts.count == shape.count, stops.count == shape.count, steps.count == shape.count
        else { throw planner.fail("\(Self.name) of \(shape) needs constant begin, end and strides and no ellipsis, new or shrunk axes") }
        var ranges: [(start: Int, step: Int, count: Int)] = []
        for axis in shape.indices {
            let size = shape[axis], step = Int(steps[axis])
            guard step > 0 else { throw planner.fail("\(Self.name) with stride \(step) is not supported") }
            func clamp(_ value: Int32) -> Int { let v = Int(value); return min(max(v < 0 ? v + size : v, 0), size) }
            let start = beginMask & (1 << axis) != 0 ? 0 : clamp(starts[axis])
            let stop = endMask & (1 << axis) != 0 ? size : clamp(stops[axis])
            ranges.append((start, step, max(0, (stop - start + step - 1) / step)))
        }
        guard ranges.map(\.count) == planner.tensors[output].shape else {
            throw planner.fail("\(Self.name) gives \(ranges.map(\.count)), the model says \(planner.tensors[output].shape)")
        }
        // Element offsets of the input in output (row-major) order; the slices these models
        // take are small.
        var offsets = [0]
        var stride = 1
        for axis in shape.indices.reversed() {
            let range = ranges[axis]
            offsets = (0..<range.count).flatMap { i in offsets.map { $0 + (range.start + i * range.step) * stride } }
            stride *= shape[axis]
        }
        return GatherKernel(input: planner.arena(input), output: planner.arena(output), offsets: offsets)
    }
}

/// Copies the input elements at `offsets` to consecutive outputs.
struct GatherKernel: PlannedKernel {
    var input: Int, output: Int, offsets: [Int]
    var kernelName: String { "strided slice" }

    func run(_ context: KernelContext) {
        let (source, out) = (context.arena + input, context.arena + output)
        for (i, offset) in offsets.enumerated() { out[i] = source[offset] }
    }
}
