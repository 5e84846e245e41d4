import Foundation
import KameraCore

/// Stabilization in one pass, for a camera: each frame comes out `latency` seconds after it
/// went in, steadied on a path smoothed over the past and that much of the future. A live
/// stream cannot look ahead for the zoom it will need, so the zoom follows what the last few
/// seconds needed (their 80th percentile, within the mode's crop), changing by at most 2 % a
/// second; uncovered strips are filled from the previous steadied frame, as in
/// `StabilizationPlan`, and a jolt larger than those allow is followed rather than hidden.
///
/// Not thread-safe: one capture loop pushes frames in order.
public struct LiveVideoStabilizer: Sendable {
    /// A steadied frame and its time.
    public struct Frame: Sendable {
        public var pixelBuffer: PixelBuffer
        public var time: Double
    }

    public let mode: VideoStabilizationMode
    /// Frames held back (the latency in frames).
    public let delay: Int
    /// The magnification applied to the latest frame.
    public private(set) var zoom = 1.0

    private let sigma: Double
    private var pending: [(frame: PixelBuffer, time: Double)] = []
    private var previousGray: PixelBuffer?
    private var lastPosition = SimilarityTransform.identity
    /// The path's recent points; `path[0]` is frame `firstIndex`.
    private var path: [CameraPath.Point] = []
    private var firstIndex = 0
    private var nextOutput = 0
    private var crop: StabilizationCrop?
    private var previousOutput: PixelBuffer?
    /// The zoom the recent frames needed, newest last (a few seconds' worth).
    private var recentNeeds: [Double] = []
    private let frameRate: Double

    /// - Parameters:
    ///   - mode: How strongly to steady (`.off` passes frames through with no delay).
    ///   - frameRate: The stream's rate, to turn seconds into frames.
    ///   - latency: How far behind the input the output may run, in seconds (0…2).
    /// - Throws: `KameraError.invalidArgument` for a rate or latency out of range.
    public init(mode: VideoStabilizationMode, frameRate: Double, latency: Double = 0.5) throws {
        guard frameRate.isFinite, frameRate > 0, frameRate < 10_000 else {
            throw KameraError.invalidArgument("live stabilizing needs a frame rate, not \(frameRate)")
        }
        guard latency.isFinite, latency >= 0, latency <= 2 else {
            throw KameraError.invalidArgument("a stabilizing latency is 0…2 s, not \(latency)")
        }
        self.mode = mode
        delay = mode == .off ? 0 : Int((latency * frameRate).rounded())
        sigma = mode.smoothingSeconds * frameRate
        self.frameRate = frameRate
    }

    /// Takes the next frame; returns the frames now ready (none while the first `delay` fill).
    /// - Throws: `KameraError.invalidArgument` when a frame's size changes mid-stream,
    ///   `KameraError.geometryEngineFailure` when motion or warp fails.
    public mutating func push(_ frame: PixelBuffer, at time: Double) throws -> [Frame] {
        guard mode != .off else { return [Frame(pixelBuffer: frame, time: time)] }
        if let crop, crop.width != Double(frame.width) || crop.height != Double(frame.height) {
            throw KameraError.invalidArgument("the stream's frame size changed to \(frame.width)×\(frame.height)")
        }
        crop = crop ?? StabilizationCrop(width: frame.width, height: frame.height)
        let gray = frame.format == .gray8 ? frame : frame.converted(to: .gray8)
        if let previousGray {
            lastPosition = CameraPath.following(lastPosition, by: try CameraMotion.estimate(from: previousGray, to: gray))
        }
        previousGray = gray
        path.append(CameraPath.Point(lastPosition))
        pending.append((frame, time))
        var ready: [Frame] = []
        while pending.count > delay { ready.append(try emit()) }
        return ready
    }

    /// The frames still held back, steadied with what is known of their future.
    public mutating func finish() throws -> [Frame] {
        var ready: [Frame] = []
        while !pending.isEmpty { ready.append(try emit()) }
        return ready
    }

    private mutating func emit() throws -> Frame {
        let (frame, time) = pending.removeFirst()
        let local = nextOutput - firstIndex
        let slice = path[...]
        let smooth = CameraPath.smoothed(slice, at: local, sigma: sigma)
        guard let crop else { return Frame(pixelBuffer: frame, time: time) }
        let raw = path[local]
        adjustZoom(needing: crop.zoomNeeded(for: smooth.transform.after(raw.transform.inverse)))
        let limited = crop.limited(smooth, raw: raw, zoom: zoom / (1 - StabilizationPlan.largestFill))
        let correction = limited.transform.after(raw.transform.inverse)
        let output = try StabilizationWarp.warp(frame, by: SimilarityTransform(scale: zoom).after(correction), fill: previousOutput)
        previousOutput = output
        nextOutput += 1
        // Only the past the smoothing window still reaches is kept.
        let keepFrom = nextOutput - Int((3 * sigma).rounded(.up)) - 1
        if keepFrom > firstIndex {
            path.removeFirst(keepFrom - firstIndex)
            firstIndex = keepFrom
        }
        return Frame(pixelBuffer: output, time: time)
    }

    /// Moves the zoom toward what the last five seconds needed, slowly enough not to be seen
    /// as a zoom.
    private mutating func adjustZoom(needing needed: Double) {
        recentNeeds.append(needed.isFinite ? needed : 1 / (1 - mode.maximumCrop))
        let window = max(1, Int(5 * frameRate))
        if recentNeeds.count > window { recentNeeds.removeFirst(recentNeeds.count - window) }
        let target = min(1 / (1 - mode.maximumCrop), StabilizationPlan.quantile(recentNeeds, StabilizationPlan.coveredShare))
        let step = 0.02 / frameRate
        zoom = min(max(target, zoom - step), zoom + step)
    }
}
