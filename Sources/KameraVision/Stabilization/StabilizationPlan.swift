import Foundation
import KameraCore

/// The second pass of stabilizing a recorded video: from every frame-to-frame camera motion,
/// the correction that puts each frame on a smoothed camera path, and the one magnification,
/// fixed for the whole video, that hides the edges the corrections uncover.
///
/// The path is smoothed part by part (shift, turn, log-scale) with a Gaussian-weighted line
/// (`VideoStabilizationMode` sets the window). The zoom hides the edges on most frames (80 %),
/// not all: on the few with the largest jolts a strip of up to 5 % of a side may be uncovered
/// and is filled from the previous steadied frame, where the still background lines up. Where
/// even that is not enough, the path's shift is re-solved as the smoothest one that fits every
/// frame (`CorridorPathSolver`), leaning toward a jolt ahead of it rather than jerking.
public struct StabilizationPlan: Sendable {
    /// The frames' size.
    public let width: Int
    public let height: Int
    /// The magnification applied to every frame (1 = none; the crop is `1 − 1/zoom` of each side's length).
    public let zoom: Double
    /// For each frame, the captured frame → steadied frame transform (about the centre), before the zoom.
    public let corrections: [SimilarityTransform]

    /// Plans the corrections for `motions.count + 1` frames of `width`×`height` at `frameRate`.
    /// - Parameters:
    ///   - motions: Each frame's motion from the frame before (`CameraMotion.estimate`).
    ///   - width: The frames' width.
    ///   - height: The frames' height.
    ///   - frameRate: Frames per second, to turn the mode's seconds into frames.
    ///   - mode: How strongly to steady.
    ///   - maximumCrop: The most of each side's length the zoom may crop (0…0.4); nil takes the
    ///     mode's (12, 16, 20 %). Less crop keeps more of the picture and leaves more of the
    ///     larger jolts in.
    /// - Throws: `KameraError.invalidArgument` for a size or rate that is not positive and
    ///   finite, or a crop out of range.
    public init(
        motions: [CameraMotion], width: Int, height: Int, frameRate: Double, mode: VideoStabilizationMode,
        maximumCrop: Double? = nil
    ) throws {
        guard width > 1, height > 1, frameRate.isFinite, frameRate > 0, frameRate < 10_000 else {
            throw KameraError.invalidArgument("stabilizing needs a frame size and a frame rate, not \(width)×\(height) at \(frameRate) fps")
        }
        let cropLimit = maximumCrop ?? mode.maximumCrop
        guard cropLimit.isFinite, cropLimit >= 0, cropLimit <= 0.4 else {
            throw KameraError.invalidArgument("the largest stabilizing crop is 0…0.4 of a side, not \(cropLimit)")
        }
        self.width = width
        self.height = height
        let raw = CameraPath.points(from: motions)
        guard mode != .off else {
            zoom = 1
            corrections = Array(repeating: .identity, count: raw.count)
            return
        }
        let largestZoom = 1 / (1 - cropLimit)
        let sigma = mode.smoothingSeconds * frameRate
        let crop = StabilizationCrop(width: width, height: height)
        var path = raw.indices.map { CameraPath.smoothed(raw[...], at: $0, sigma: sigma) }
        let needed = path.indices.map { crop.zoomNeeded(for: path[$0].transform.after(raw[$0].transform.inverse)) }
        // One zoom for the whole video, enough for all but the largest jolts; on those frames
        // a strip of at most `largestFill` of each side may be uncovered, filled from the
        // frame before (see `render`). Hiding every edge of the worst frame would crop the
        // whole video for a moment of it, or bend the path into a jerk there.
        zoom = min(largestZoom, Self.quantile(needed, Self.coveredShare))
        let edgeZoom = zoom / (1 - Self.largestFill)
        if needed.contains(where: { $0 > edgeZoom }) {
            path = CorridorPathSolver(crop: crop, zoom: edgeZoom, sigma: sigma).solve(raw: raw, smooth: path)
        }
        // What the shift alone could not fit (a turn larger than the crop allows) is pulled
        // back toward the camera's own position.
        path = path.indices.map { crop.limited(path[$0], raw: raw[$0], zoom: edgeZoom) }
        corrections = path.indices.map { path[$0].transform.after(raw[$0].transform.inverse) }
    }

    /// The share of frames whose edges the zoom hides entirely.
    static let coveredShare = 0.8
    /// The most of each side's length that may be left uncovered (and filled) on a frame.
    static let largestFill = 0.05

    /// The `share` quantile of `values` (finite ones; 1 when there are none).
    static func quantile(_ values: [Double], _ share: Double) -> Double {
        let sorted = values.filter(\.isFinite).sorted()
        guard !sorted.isEmpty else { return 1 }
        return sorted[min(sorted.count - 1, Int((share * Double(sorted.count - 1)).rounded()))]
    }

    /// The whole transform for frame `index`: its correction, then the zoom (identity past the end).
    public func outputTransform(forFrame index: Int) -> SimilarityTransform {
        guard corrections.indices.contains(index) else { return SimilarityTransform(scale: zoom) }
        return SimilarityTransform(scale: zoom).after(corrections[index])
    }

    /// Frame `index` steadied; `previous` (the frame before it, steadied) fills any strip the
    /// correction leaves uncovered.
    /// - Throws: `KameraError.invalidArgument` when the frame's size is not the plan's,
    ///   `KameraError.geometryEngineFailure` when the warp fails.
    public func render(_ frame: PixelBuffer, index: Int, previous: PixelBuffer? = nil) throws -> PixelBuffer {
        guard frame.width == width, frame.height == height else {
            throw KameraError.invalidArgument("frame \(index) is \(frame.width)×\(frame.height), the plan is for \(width)×\(height)")
        }
        return try StabilizationWarp.warp(frame, by: outputTransform(forFrame: index), fill: previous)
    }
}
