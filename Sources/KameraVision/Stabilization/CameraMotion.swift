import CGeometry
import KameraCore

/// How the camera moved between two consecutive frames: the similarity carrying the earlier
/// frame's content to where it is in the later one, fitted to corners spread over the frame
/// so that people and cars moving in the scene do not count as camera motion.
public struct CameraMotion: Sendable, Hashable, Codable {
    /// Earlier frame's pixels (from the centre) to the later frame's.
    public var transform: SimilarityTransform
    /// The share of followed corners the fit explains (0…1); 0 with an identity transform when
    /// the pair could not be explained (a cut, a blank frame, a fast blur).
    public var confidence: Double

    public init(transform: SimilarityTransform, confidence: Double) {
        self.transform = transform
        self.confidence = confidence
    }

    /// The motion from `previous` to `next`, two frames of one size (gray is fastest).
    /// - Throws: `KameraError.invalidArgument` when the sizes differ,
    ///   `KameraError.geometryEngineFailure` when the engine fails.
    public static func estimate(from previous: PixelBuffer, to next: PixelBuffer) throws -> CameraMotion {
        guard previous.width == next.width, previous.height == next.height else {
            throw KameraError.invalidArgument(
                "camera motion needs frames of one size, not \(previous.width)×\(previous.height) and \(next.width)×\(next.height)")
        }
        var matrix = [Double](repeating: 0, count: 6)
        var confidence = 0.0
        try GeometryEngine.withImage(previous) { a in
            try GeometryEngine.withImage(next) { b in
                try GeometryEngine.run("camera motion") { error, size in
                    kgeo_camera_motion(a, b, &matrix, &confidence, error, size)
                }
            }
        }
        guard let transform = SimilarityTransform(pixelMatrix: matrix, width: next.width, height: next.height) else {
            return CameraMotion(transform: .identity, confidence: 0)
        }
        return CameraMotion(transform: transform, confidence: confidence)
    }
}
