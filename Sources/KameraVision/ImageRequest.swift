import KameraCore

/// A request that analyses one image, like Vision's `ImageProcessingRequest`.
public protocol ImageRequest: Sendable {
    associatedtype Result: Sendable
    /// The part of the image to analyse, normalized with a lower-left origin (default: the
    /// whole image). As in Vision, results are relative to it: normalized coordinates to the
    /// region, pixel coordinates to its pixels, `imageSize` its size; place them in the full
    /// image with `toImageCoordinates(from:imageSize:)`. A region outside 0…1 is an error.
    var regionOfInterest: NormalizedRect { get set }
    /// Runs the request on the image of `context` (its `regionOfInterest` of it), reusing
    /// buffers other requests made.
    func perform(in context: ImageAnalysisContext) throws -> Result
}

extension ImageRequest {
    /// Runs the request on `image`, on an analysis thread (`AnalysisExecutor`): the
    /// caller's task suspends and the cooperative pool stays free for other tasks.
    public func perform(on image: Image) async throws -> Result {
        try await AnalysisExecutor.run { try perform(in: ImageAnalysisContext(image)) }
    }

    /// Runs the request on upright pixels (see `perform(on: Image)`).
    public func perform(on pixelBuffer: PixelBuffer) async throws -> Result {
        try await perform(on: Image(pixelBuffer: pixelBuffer))
    }

    /// Runs the request on `image` without suspending (for non-async callers).
    public func performSynchronously(on image: Image) throws -> Result {
        try perform(in: ImageAnalysisContext(image))
    }
}
