import KameraCore

/// Runs several requests on one image, sharing decoded and converted buffers between them,
/// like Vision's `ImageRequestHandler`.
public struct ImageRequestHandler: Sendable {
    private let context: ImageAnalysisContext

    public init(_ image: Image) {
        context = ImageAnalysisContext(image)
    }

    public init(_ pixelBuffer: PixelBuffer) {
        self.init(Image(pixelBuffer: pixelBuffer))
    }

    /// Runs each request in turn, on an analysis thread (``AnalysisExecutor``), and returns
    /// their results in the same order.
    public func perform<each Request: ImageRequest>(_ request: repeat each Request) async throws
        -> (repeat (each Request).Result) {
        let context = context
        return try await AnalysisExecutor.run { (repeat try (each request).perform(in: context)) }
    }
}
