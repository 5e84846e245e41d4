/// One kernel call of a compiled network, with its arena and weight offsets (in floats)
/// fixed at compile time.
protocol PlannedKernel: Sendable {
    /// A short name with the window for windowed kernels (profiles group by it).
    var kernelName: String { get }
    func run(_ context: KernelContext)
}
