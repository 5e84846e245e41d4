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

    /// Pixels stored the way a camera wrote them, with the EXIF `orientation` that turns them
    /// upright (Vision's `ImageRequestHandler(_:orientation:)`): requests see the upright
    /// image, and results are in its coordinates.
    public init(_ pixelBuffer: PixelBuffer, orientation: ImageOrientation) {
        self.init(Image(pixelBuffer: pixelBuffer.applying(orientation), sourceOrientation: orientation))
    }

    /// Runs each request in turn, on an analysis thread (`AnalysisExecutor`), and returns
    /// their results in the same order.
    public func perform<each Request: ImageRequest>(_ request: repeat each Request) async throws
        -> (repeat (each Request).Result)
    {
        let context = context
        return try await AnalysisExecutor.run { (repeat try (each request).perform(in: context)) }
    }
}
