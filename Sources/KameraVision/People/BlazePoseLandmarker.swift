import Foundation
import KameraCore
import KameraNN

/// BlazePose's landmark model (full) run by KameraNN on a person's upright region: 33 body
/// landmarks in image pixels with their visibility and presence, and whether a person is in
/// the region at all.
struct BlazePoseLandmarker: Sendable {
    static let inputSize = 256
    static let landmarkCount = 33

    struct Landmark: Sendable {
        var position: PixelPoint
        /// Depth relative to the hips, in the region's pixel scale (smaller is nearer).
        var depth: Double
        /// How likely the point is in view (not hidden by the body or something else).
        var visibility: Float
        /// How likely the point lies inside the image.
        var presence: Float
    }

    private let sessions: InferenceSessionPool
    private let landmarksOutput: Int, flagOutput: Int

    init(models: ModelStore) throws {
        sessions = try models.sessions(.poseLandmarkFull)
        let shapes = sessions.network.outputShapes
        guard let landmarks = shapes.firstIndex(of: [1, 195]), let flag = shapes.firstIndex(of: [1, 1]) else {
            throw KameraError.invalidModel(path: sessions.network.path, reason: "unexpected outputs \(shapes)")
        }
        (landmarksOutput, flagOutput) = (landmarks, flag)
    }

    /// The landmarks in `region`, and the model's score that a person is there.
    func landmarks(in sampler: TensorSampler, region: RotatedRect) -> (points: [Landmark], score: Float) {
        let size = Self.inputSize
        return sessions.withSession { session in
            session.withInput { sampler.sample(region, into: $0, width: size, height: size, range: 0...1) }
            session.invoke()
            let raw = session.output(landmarksOutput)
            func sigmoid(_ x: Float) -> Float { 1 / (1 + exp(-min(max(x, -80), 80))) }
            let points = (0..<Self.landmarkCount).map { i -> Landmark in
                let at = 5 * i
                return Landmark(
                    position: region.imagePoint(u: Double(raw[at]) / Double(size), v: Double(raw[at + 1]) / Double(size)),
                    depth: Double(raw[at + 2]) / Double(size) * region.width, visibility: sigmoid(raw[at + 3]),
                    presence: sigmoid(raw[at + 4]))
            }
            // The flag is a probability already (a sigmoid ends the branch); clamped against a stray value.
            return (points, min(max(session.output(flagOutput)[0], 0), 1))
        }
    }
}
