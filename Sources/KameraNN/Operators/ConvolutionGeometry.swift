/// Where a windowed operator reads and writes (arena offsets), and its window.
struct ConvolutionGeometry: Sendable {
    var input: Int, inputHeight: Int, inputWidth: Int, inputChannels: Int
    var output: Int, outputHeight: Int, outputWidth: Int
    var kernelHeight: Int, kernelWidth: Int
    var strideH: Int, strideW: Int, dilationH: Int, dilationW: Int
    var padTop: Int, padLeft: Int

    /// `name kh×kw/stride`, for profiles.
    func kernelName(_ name: String) -> String { "\(name) \(kernelHeight)x\(kernelWidth)/\(strideH)" }
}
