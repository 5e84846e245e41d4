import CKameraNNKernels

/// FULLY_CONNECTED with constant weights `[outputs, inputs]` and an optional bias: each input
/// row through one GEMM (the hand model's heads).
struct FullyConnectedOperator: ActivationFusing {
    static let builtinCode: Int32 = 9
    static let name = "FULLY_CONNECTED"

    var input: Int, weights: Int, bias: Int?
    var output: Int
    var activation: FusedActivation

    init(input: Int, weights: Int, bias: Int?, output: Int, activation: FusedActivation) {
        (self.input, self.weights, self.bias, self.output, self.activation) = (input, weights, bias, output, activation)
    }

    init(_ record: OperatorRecord) throws {
        self.init(
            input: try record.input(0), weights: try record.input(1), bias: try record.optionalInput(2), output: record.output,
            activation: try record.activation(field: 0))
        // Field 1 is the weights' format: only the default (plain float) one is read.
        guard try record.int(1) == 0 else { throw record.fail("FULLY_CONNECTED with shuffled weights is not supported") }
    }

    var inputs: [Int] { [input, weights] + (bias.map { [$0] } ?? []) }
    var dataInputs: [Int] { [input] }

    func plan(_ planner: inout StepPlanner) throws -> any PlannedKernel {
        let w = planner.tensors[weights]
        guard let values = w.floats, w.shape.count == 2 else {
            throw planner.fail("FULLY_CONNECTED weights \(w.name) \(w.shape) must be constant [outputs, inputs]")
        }
        let (n, k) = (w.shape[0], w.shape[1])
        let total = planner.tensors[input].elementCount
        guard k > 0, total % k == 0, planner.tensors[output].elementCount == total / k * n else {
            throw planner.fail(
                "FULLY_CONNECTED of \(planner.tensors[input].shape) by \(w.shape) cannot give \(planner.tensors[output].shape)")
        }
        let epilogue = try planner.epilogue(activation)
        let biasOffset = planner.packChannels(try planner.biasValues(bias, count: n))
        let weightOffset = planner.packBlocks(count: k, channels: n) { kk, o in values[o * k + kk] }
        return PointwiseConvolutionKernel(
            input: planner.arena(input), rows: total / k, inputChannels: k, weights: weightOffset, bias: biasOffset,
            outputChannels: n, output: planner.arena(output), activation: epilogue)
    }
}
