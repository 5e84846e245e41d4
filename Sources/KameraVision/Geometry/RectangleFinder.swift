import CGeometry
import KameraCore

/// Rectangle search shared by the rectangle and document requests (the OpenCV shim's
/// `kgeo_detect_rectangles`: candidate outlines at a working scale, sides re-fitted to the
/// strongest edges at full resolution).
struct RectangleFinder {
    var minimumAspectRatio: Double
    var maximumAspectRatio: Double
    var quadratureTolerance: Double
    var minimumSize: Double
    var minimumConfidence: Double
    var maximumObservations: Int
    /// Ranks large rectangles first (the page, not a paragraph on it).
    var prefersLarge: Bool

    /// Most rectangles one call reports, whatever `maximumObservations` says.
    static let capacity = 256

    func find(in gray: PixelBuffer) throws -> [RectangleObservation] {
        var options = kgeo_rectangle_options(
            minimum_aspect_ratio: minimumAspectRatio, maximum_aspect_ratio: maximumAspectRatio,
            quadrature_tolerance: quadratureTolerance, minimum_size: minimumSize,
            minimum_confidence: minimumConfidence, maximum_observations: Int32(maximumObservations),
            prefers_large: prefersLarge ? 1 : 0)
        var quads = [kgeo_quad](repeating: kgeo_quad(), count: Self.capacity)
        var count: Int32 = 0
        try GeometryEngine.withImage(gray) { image in
            try GeometryEngine.run("rectangle detection") { error, size in
                quads.withUnsafeMutableBufferPointer {
                    kgeo_detect_rectangles(image, &options, $0.baseAddress, Int32($0.count), &count, error, size)
                }
            }
        }
        return quads.prefix(Int(count)).map {
            RectangleObservation(
                pixelCorners: GeometryEngine.quad($0.points), imageSize: gray.size, confidence: Float($0.confidence))
        }
    }
}
