import Foundation

extension ImageRequest {
    /// Runs the request on the image file at `url` (JPEG, PNG or WebP; EXIF orientation
    /// applied), decoding it on an analysis thread too. Vision's `perform(on: URL)`.
    public func perform(on url: URL, options: ImageDecodingOptions = .init()) async throws -> Result {
        try await AnalysisExecutor.run { try perform(in: ImageAnalysisContext(Image(contentsOf: url, options: options))) }
    }

    /// Runs the request on an encoded image in memory (an upload, say). Vision's
    /// `perform(on: Data)`.
    public func perform(on data: Data, options: ImageDecodingOptions = .init()) async throws -> Result {
        try await AnalysisExecutor.run { try perform(in: ImageAnalysisContext(Image(data: data, options: options))) }
    }
}
