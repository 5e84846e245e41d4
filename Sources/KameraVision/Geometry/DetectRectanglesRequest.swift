import KameraCore

/// Finds projected rectangles (documents, cards, screens, signs), like Vision's
/// `DetectRectanglesRequest`, with its parameters and defaults. Best first.
public struct DetectRectanglesRequest: ImageRequest {
    /// Smallest shorter-side / longer-side ratio to report (0…1, default 0.5).
    public var minimumAspectRatio: Float = 0.5
    /// Largest shorter-side / longer-side ratio to report (0…1, default 1).
    public var maximumAspectRatio: Float = 1
    /// Degrees each corner may differ from a right angle (0…45, default 30): how much
    /// perspective to accept.
    public var quadratureTolerance: Float = 30
    /// Smallest rectangle to report: its shorter side as a share of the image's shorter
    /// dimension (0…1, default 0.2).
    public var minimumSize: Float = 0.2
    /// Lowest confidence to report (0…1, default 0).
    public var minimumConfidence: Float = 0
    /// Most rectangles to report (default 1; 0 = all).
    public var maximumObservations = 1
    /// The part of the image to analyse (normalized, lower-left origin); results are relative
    /// to it, as in Vision. Default: the whole image.
    public var regionOfInterest = NormalizedRect.fullImage

    public init() {}

    public func perform(in context: ImageAnalysisContext) throws -> [RectangleObservation] {
        try validate()
        let context = try context.region(regionOfInterest)
        return try RectangleFinder(
            minimumAspectRatio: Double(minimumAspectRatio), maximumAspectRatio: Double(maximumAspectRatio),
            quadratureTolerance: Double(quadratureTolerance), minimumSize: Double(minimumSize),
            minimumConfidence: Double(minimumConfidence), maximumObservations: maximumObservations,
            prefersLarge: false
        ).find(in: context)
    }

    private func validate() throws {
        func check(_ ok: Bool, _ message: String) throws {
            if !ok { throw KameraError.invalidArgument(message) }
        }
        try check((0...1).contains(minimumAspectRatio), "minimumAspectRatio \(minimumAspectRatio) must be in 0…1")
        try check((0...1).contains(maximumAspectRatio), "maximumAspectRatio \(maximumAspectRatio) must be in 0…1")
        try check(
            minimumAspectRatio <= maximumAspectRatio,
            "minimumAspectRatio \(minimumAspectRatio) is above maximumAspectRatio \(maximumAspectRatio)")
        try check((0...45).contains(quadratureTolerance), "quadratureTolerance \(quadratureTolerance) must be 0…45 degrees")
        try check((0...1).contains(minimumSize), "minimumSize \(minimumSize) must be in 0…1")
        try check((0...1).contains(minimumConfidence), "minimumConfidence \(minimumConfidence) must be in 0…1")
        try check(maximumObservations >= 0, "maximumObservations \(maximumObservations) must be 0 (all) or more")
    }
}
