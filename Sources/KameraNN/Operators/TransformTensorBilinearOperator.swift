import Foundation

/// MediaPipe's custom `TransformTensorBilinear` (version 2), in the attention face mesh: samples
/// a feature map on the grid a 4×4 matrix maps it to (each output cell's position, taken at
/// its centre, through the matrix's first two rows), bilinearly; cells that land outside the
/// map read zeros. The output's size comes from its tensor shape.
struct TransformTensorBilinearOperator: MatrixTransformOperator {
    static let builtinCode: Int32 = OperatorRegistry.customBuiltinCode
    static let customCode: String? = "TransformTensorBilinear"
    static let name = "TransformTensorBilinear"

    var input: Int, matrix: Int, output: Int

    init(input: Int, matrix: Int, output: Int) {
        (self.input, self.matrix, self.output) = (input, matrix, output)
    }

    func plan(_ planner: inout StepPlanner) throws -> any PlannedKernel {
        let (height, width, channels) = try planner.image(input)
        let (outputHeight, outputWidth, outputChannels) = try planner.image(output)
        guard outputChannels == channels, planner.tensors[matrix].elementCount == 16 else {
            throw planner.fail(
                "\(Self.name) of \(planner.tensors[input].shape) by \(planner.tensors[matrix].shape) "
                    + "cannot give \(planner.tensors[output].shape)")
        }
        return TransformTensorBilinearKernel(
            input: planner.arena(input), matrix: planner.arena(matrix), output: planner.arena(output), height: height,
            width: width, channels: channels, outputHeight: outputHeight, outputWidth: outputWidth)
    }
}

struct TransformTensorBilinearKernel: PlannedKernel {
    var input: Int, matrix: Int, output: Int
    var height: Int, width: Int, channels: Int, outputHeight: Int, outputWidth: Int
    var kernelName: String { "transform tensor bilinear" }

    func run(_ context: KernelContext) {
        let m = context.arena + matrix
        let source = context.arena + input
        let out = context.arena + output
        // Version 2 samples cell centres: T → S(−½) · T · A(+½), folded into the translation.
        let x = (m[0], m[1], m[3] + m[0] * 0.5 + m[1] * 0.5 - 0.5)
        let y = (m[4], m[5], m[7] + m[4] * 0.5 + m[5] * 0.5 - 0.5)
        for row in 0..<outputHeight {
            for column in 0..<outputWidth {
                let target = out + (row * outputWidth + column) * channels
                let (u, v) = (Float(column), Float(row))
                let tx = x.0 * u + x.1 * v + x.2, ty = y.0 * u + y.1 * v + y.2
                // Outside [0, size − 1] (NaN included) reads zeros, as MediaPipe's kernel does.
                guard tx >= 0, tx <= Float(width - 1), ty >= 0, ty <= Float(height - 1) else {
                    target.update(repeating: 0, count: channels)
                    continue
                }
                let (x0, y0) = (Int(tx), Int(ty))
                let (fx, fy) = (tx - Float(x0), ty - Float(y0))
                let (x1, y1) = (min(x0 + 1, width - 1), min(y0 + 1, height - 1))
                // A neighbour past the edge has zero weight here (the point is on the edge),
                // so clamping it reads the same value MediaPipe's zero would be weighted by.
                let w11 = (1 - fx) * (1 - fy), w21 = fx * (1 - fy), w12 = (1 - fx) * fy, w22 = fx * fy
                let q11 = source + (y0 * width + x0) * channels, q21 = source + (y0 * width + x1) * channels
                let q12 = source + (y1 * width + x0) * channels, q22 = source + (y1 * width + x1) * channels
                for k in 0..<channels {
                    target[k] = w11 * q11[k] + w21 * q21[k] + w12 * q12[k] + w22 * q22[k]
                }
            }
        }
    }
}
