/// MediaPipe's custom `TransformLandmarks` (version 2), in the attention face mesh: maps each
/// landmark's x and y through the first two rows of a 4×4 matrix (from a region's grid back
/// to the input's pixels); a third coordinate, if any, is kept.
struct TransformLandmarksOperator: MatrixTransformOperator {
    static let builtinCode: Int32 = OperatorRegistry.customBuiltinCode
    static let customCode: String? = "TransformLandmarks"
    static let name = "TransformLandmarks"

    var input: Int, matrix: Int, output: Int

    init(input: Int, matrix: Int, output: Int) {
        (self.input, self.matrix, self.output) = (input, matrix, output)
    }

    func plan(_ planner: inout StepPlanner) throws -> any PlannedKernel {
        let landmarks = planner.tensors[input]
        let dimensions = landmarks.shape.last ?? 0
        // Version 2 takes [1, N, 2 or 3]; version 1's 4-D input and scale option are not read.
        guard landmarks.shape.count == 3, dimensions == 2 || dimensions == 3, planner.tensors[output].shape == landmarks.shape,
            planner.tensors[matrix].elementCount == 16
        else {
            throw planner.fail("\(Self.name) takes [.., 2 or 3] landmarks and a 4×4 matrix, not \(landmarks.shape)")
        }
        return TransformLandmarksKernel(
            input: planner.arena(input), matrix: planner.arena(matrix), output: planner.arena(output),
            count: landmarks.elementCount / dimensions, dimensions: dimensions)
    }
}

struct TransformLandmarksKernel: PlannedKernel {
    var input: Int, matrix: Int, output: Int, count: Int, dimensions: Int
    var kernelName: String { "transform landmarks" }

    func run(_ context: KernelContext) {
        let m = context.arena + matrix
        let (source, out) = (context.arena + input, context.arena + output)
        for i in 0..<count {
            let p = source + i * dimensions, q = out + i * dimensions
            let (x, y) = (p[0], p[1])
            q[0] = m[0] * x + m[1] * y + m[3]
            q[1] = m[4] * x + m[5] * y + m[7]
            if dimensions == 3 { q[2] = p[2] }
        }
    }
}
