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
    /// Positions of the outputs kept, in the order `init` asks for them.
    private static let landmarksOutput = 0, flagOutput = 1, heatmapOutput = 2, worldOutput = 3

    init(models: ModelStore) throws {
        // The pinned file's outputs: landmarks, person flag, person mask, heatmap, world
        // landmarks. The mask (256² over the region) is not read: left out, its branch of 128²
        // and 256² layers is about a third of the model's time.
        sessions = try models.sessions(.poseLandmarkFull, keepingOutputs: [0, 1, 3, 4])
        let shapes = sessions.network.outputShapes
        guard shapes == [[1, 195], [1, 1], [1, 64, 64, 39], [1, 117]] else {
            throw KameraError.invalidModel(path: sessions.network.path, reason: "unexpected outputs \(shapes)")
        }
    }

    static func sigmoid(_ x: Float) -> Float { 1 / (1 + exp(-min(max(x, -80), 80))) }

    /// Heatmap size and the window the refinement averages over (MediaPipe's
    /// `RefineLandmarksFromHeatmapCalculator`: kernel 7, refined where the heatmap's peak in
    /// the window reaches 0.5).
    static let heatmapSize = 64, heatmapWindow = 3
    static let refineAbove: Float = 0.5

    /// A landmark's position (0…1 across the region) moved to the confidence-weighted centre
    /// of its heatmap round it, as MediaPipe's pipeline does: the regression alone sits a few
    /// pixels off the joint.
    static func refined(u: Double, v: Double, landmark: Int, heatmap: UnsafeBufferPointer<Float>) -> (Double, Double) {
        let n = heatmapSize, channels = 39
        let (column, row) = (Int((u * Double(n)).rounded(.down)), Int((v * Double(n)).rounded(.down)))
        guard (0..<n).contains(column), (0..<n).contains(row) else { return (u, v) }
        var (sum, peak, weightedColumn, weightedRow) = (Float(0), Float(0), Float(0), Float(0))
        for y in max(0, row - heatmapWindow)...min(n - 1, row + heatmapWindow) {
            for x in max(0, column - heatmapWindow)...min(n - 1, column + heatmapWindow) {
                let confidence = sigmoid(heatmap[(y * n + x) * channels + landmark])
                (sum, peak) = (sum + confidence, max(peak, confidence))
                (weightedColumn, weightedRow) = (weightedColumn + Float(x) * confidence, weightedRow + Float(y) * confidence)
            }
        }
        guard peak >= refineAbove, sum > 0 else { return (u, v) }
        return (Double(weightedColumn / sum) / Double(n), Double(weightedRow / sum) / Double(n))
    }

    /// What the model found in one region.
    struct Result: Sendable {
        var points: [Landmark]
        /// The model's score that a person is in the region (0 when its output is not finite).
        var score: Float
        /// Where to look for the same person in the next frame of a stream: MediaPipe's
        /// tracking ROI, from the model's two alignment points (the hips' centre and a point on
        /// the circle round the body), ×1.25 and upright, as the detector's region.
        var nextRegion: RotatedRect
        /// The 33 landmarks in metres about the hips' centre (the model's world landmarks),
        /// x to the image's right, y down, z away from the camera, turned back by the region's
        /// angle as MediaPipe's `WorldLandmarkProjectionCalculator` does.
        var world: [SIMD3<Double>] = []
    }

    /// The landmarks in `region`, the model's score that a person is there, and the region to
    /// follow them in.
    func landmarks(in sampler: TensorSampler, region: RotatedRect) -> Result {
        let size = Self.inputSize
        return sessions.withSession { session in
            session.withInput {
                // MediaPipe's crop: its grid, and the edge pixels repeated past the image's edges
                // (a body cut off by the frame reads as its own pixels stretched, not as black).
                sampler.sample(region, into: $0, width: size, height: size, range: 0...1, grid: .corners, border: .replicate)
            }
            session.invoke()
            let raw = session.output(Self.landmarksOutput), heatmap = session.output(Self.heatmapOutput)
            // A broken model or a degenerate region can give NaN: no person, never a trap later.
            let worldRaw = session.output(Self.worldOutput)
            guard raw.allSatisfy(\.isFinite), worldRaw.allSatisfy(\.isFinite) else {
                return Result(points: [], score: 0, nextRegion: region)
            }
            let (c, s) = (cos(region.angle), sin(region.angle))
            let world = (0..<Self.landmarkCount).map { i -> SIMD3<Double> in
                let (x, y, z) = (Double(worldRaw[3 * i]), Double(worldRaw[3 * i + 1]), Double(worldRaw[3 * i + 2]))
                return SIMD3(x * c - y * s, x * s + y * c, z)
            }
            let points = (0..<Self.landmarkCount).map { i -> Landmark in
                let at = 5 * i
                let (u, v) = Self.refined(
                    u: Double(raw[at]) / Double(size), v: Double(raw[at + 1]) / Double(size), landmark: i, heatmap: heatmap)
                return Landmark(
                    position: region.imagePoint(u: u, v: v), depth: Double(raw[at + 2]) / Double(size) * region.width,
                    visibility: Self.sigmoid(raw[at + 3]), presence: Self.sigmoid(raw[at + 4]))
            }
            // Alignment points 33 and 34 follow the 33 landmarks.
            let alignment = [33, 34].map {
                region.imagePoint(u: Double(raw[5 * $0]) / Double(size), v: Double(raw[5 * $0 + 1]) / Double(size))
            }
            let next = PersonDetection.bodyRegion(center: alignment[0], edge: alignment[1])
            // The flag is a probability already (a sigmoid ends the branch); clamped against a stray value.
            let flag = session.output(Self.flagOutput)[0]
            return Result(points: points, score: flag.isFinite ? min(max(flag, 0), 1) : 0, nextRegion: next, world: world)
        }
    }
}
