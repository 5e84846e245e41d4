import CKameraNNKernels

/// A standalone activation pass (RELU, RELU6, PRELU that could not be fused).
struct ActivationKernel: PlannedKernel {
    var input: Int, output: Int, pixels: Int, channels: Int
    var activation: PlannedActivation
    var kernelName: String { "activation" }

    func run(_ context: KernelContext) {
        knn_activate(context.arena + input, context.arena + output, pixels, channels, context.activation(activation))
    }
}
