import CGeometry
import KameraCore

/// Traces the outlines of shapes as a tree, like Vision's `DetectContoursRequest`, with its
/// parameters and defaults.
public struct DetectContoursRequest: ImageRequest {
    /// How much to stretch contrast before tracing (0…3, default 2).
    public var contrastAdjustment: Float = 2
    /// The grey level (0…1) contrast is stretched about; nil picks the image's mean.
    public var contrastPivot: Float? = 0.5
    /// Trace dark shapes on a light ground (default) or light on dark.
    public var detectsDarkOnLight = true
    /// The image is scaled down so its longer side is at most this (default 512, at least 64).
    public var maximumImageDimension = 512
    /// The part of the image to analyse (normalized, lower-left origin). Default: all.
    public var regionOfInterest = NormalizedRect.fullImage

    public init() {}

    public func perform(in context: ImageAnalysisContext) throws -> ContoursObservation {
        guard (0...3).contains(contrastAdjustment) else {
            throw KameraError.invalidArgument("contrastAdjustment \(contrastAdjustment) must be in 0…3")
        }
        if let contrastPivot, !(0...1).contains(contrastPivot) {
            throw KameraError.invalidArgument("contrastPivot \(contrastPivot) must be in 0…1 (or nil for automatic)")
        }
        guard maximumImageDimension >= 64 else {
            throw KameraError.invalidArgument("maximumImageDimension \(maximumImageDimension) must be at least 64")
        }
        let gray = try context.region(regionOfInterest).grayscale
        var traced = kgeo_contours()
        try GeometryEngine.withImage(gray) { image in
            try GeometryEngine.run("contour detection") { error, size in
                kgeo_find_contours(
                    image, Double(contrastAdjustment), contrastPivot.map(Double.init) ?? -1, detectsDarkOnLight ? 1 : 0,
                    Int32(min(maximumImageDimension, Int(Int32.max))), &traced, error, size)
            }
        }
        defer { kgeo_contours_free(&traced) }
        let count = Int(traced.count)
        let size = Size(width: Double(traced.width), height: Double(traced.height))
        var points: [[NormalizedPoint]] = []
        var parents: [Int] = []
        for i in 0..<count {
            let range = Int(traced.point_offsets[i])..<Int(traced.point_offsets[i + 1])
            points.append(
                range.map { PixelPoint(x: Double(traced.points[2 * $0]), y: Double(traced.points[2 * $0 + 1])).normalized(in: size) })
            parents.append(Int(traced.parents[i]))
        }
        return ContoursObservation(points: points, parents: parents, analysedSize: size)
    }
}
