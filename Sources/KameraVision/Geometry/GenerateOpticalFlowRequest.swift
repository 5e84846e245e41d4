import CGeometry
import KameraCore

/// Dense motion between two images, like Vision's `GenerateOpticalFlowRequest`: for every
/// pixel of the image the request runs on, where it moved to in `targetedImage`.
public struct GenerateOpticalFlowRequest: ImageRequest {
    /// Accuracy against time, as Vision's levels (DIS optical flow presets underneath).
    public enum ComputationAccuracy: Int, Sendable, CaseIterable {
        case low, medium, high, veryHigh
    }

    /// The later image; must have the reference's size (after `regionOfInterest`).
    public var targetedImage: Image
    /// Default: `.medium`.
    public var computationAccuracy = ComputationAccuracy.medium
    /// The part of both images to analyse (normalized, lower-left origin). Default: all.
    public var regionOfInterest = NormalizedRect.fullImage

    public init(targetedImage: Image) {
        self.targetedImage = targetedImage
    }

    public func perform(in context: ImageAnalysisContext) throws -> OpticalFlowObservation {
        let reference = try context.region(regionOfInterest).grayscale
        let target = try ImageAnalysisContext(targetedImage).region(regionOfInterest).grayscale
        guard reference.width == target.width, reference.height == target.height else {
            throw KameraError.invalidArgument(
                "optical flow needs images of one size: \(reference.width)×\(reference.height) and \(target.width)×\(target.height)")
        }
        var vectors = [Float](repeating: 0, count: reference.width * reference.height * 2)
        try GeometryEngine.withImage(reference) { a in
            try GeometryEngine.withImage(target) { b in
                try GeometryEngine.run("optical flow") { error, size in
                    vectors.withUnsafeMutableBufferPointer {
                        kgeo_optical_flow(a, b, Int32(computationAccuracy.rawValue), $0.baseAddress, error, size)
                    }
                }
            }
        }
        return OpticalFlowObservation(width: reference.width, height: reference.height, vectors: vectors)
    }
}

/// A dense motion field, like Vision's `OpticalFlowObservation` (whose pixel buffer holds the
/// same two floats per pixel).
public struct OpticalFlowObservation: Sendable, Hashable {
    public let width: Int
    public let height: Int
    /// x, y motion in pixels (top-left origin) for each pixel, row by row.
    public let vectors: [Float]

    public init(width: Int, height: Int, vectors: [Float]) {
        self.width = width
        self.height = height
        self.vectors = vectors
    }

    /// The motion at pixel (x, y).
    public func motion(x: Int, y: Int) -> PixelPoint {
        let i = 2 * (y * width + x)
        return PixelPoint(x: Double(vectors[i]), y: Double(vectors[i + 1]))
    }
}
