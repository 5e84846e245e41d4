import Foundation
import Synchronization

/// Stabilizes a recorded video in two passes, as a phone does after capture: the first reads
/// the frames' luma and measures the camera's motion between each pair; the plan smooths the
/// path; the second reads the frames again and writes each one steadied, with the sound
/// copied untouched and the rotation kept.
public struct MovieStabilizer: Sendable {
    /// How strongly to steady.
    public var mode: VideoStabilizationMode
    /// The most of each side's length the zoom may crop (0…0.4); nil: the mode's.
    public var maximumCrop: Double?

    public init(mode: VideoStabilizationMode = .standard, maximumCrop: Double? = nil) {
        self.mode = mode
        self.maximumCrop = maximumCrop
    }

    /// The first pass: the camera's motion between every pair of frames of `path` (a file
    /// that can be read twice), and the plan made from it.
    /// - Parameters:
    ///   - path: The video (read once here, again by `stabilize`).
    ///   - shouldStop: Asked between frames; true ends the pass with `CancellationError`.
    ///   - progress: Called with the frames read so far.
    /// - Throws: `KameraError` when the video cannot be read, `CancellationError` when stopped.
    public func plan(for path: String, shouldStop: () -> Bool = { false }, progress: (Int) -> Void = { _ in }) throws
        -> (plan: StabilizationPlan, motions: [CameraMotion])
    {
        let reader = try MovieReader(path: path, outputFormat: .gray8)
        var motions: [CameraMotion] = []
        var previous: PixelBuffer?
        // Frames are read in batches whose pairs are measured on all cores at once: the pairs
        // are independent, and measuring is most of the pass.
        var batch: [PixelBuffer] = []
        func measure() throws {
            guard !batch.isEmpty else { return }
            let frames = (previous.map { [$0] } ?? []) + batch
            motions += try Self.motions(between: frames, measuring: mode != .off)
            previous = batch.last
            batch.removeAll(keepingCapacity: true)
            progress(motions.count + 1)
        }
        let frames = FramePrefetcher(reader, capacity: Self.batchSize)
        defer { frames.cancel() }
        while let frame = try frames.next() {
            if shouldStop() { throw CancellationError() }
            batch.append(frame.pixelBuffer)
            if batch.count == Self.batchSize { try measure() }
        }
        try measure()
        guard previous != nil else { throw KameraError.corruptMedia(path: path, reason: "no video frame could be decoded") }
        let plan = try StabilizationPlan(
            motions: motions, width: reader.width, height: reader.height, frameRate: reader.frameRate ?? 30, mode: mode,
            maximumCrop: maximumCrop)
        return (plan, motions)
    }

    /// Frames read before their pairs are measured together.
    static let batchSize = 16

    /// The camera's motion between each consecutive pair of `frames`, measured on all cores;
    /// a pair of different sizes (a decoder changing size mid-stream) is a cut, as is every
    /// pair when `measuring` is false.
    static func motions(between frames: [PixelBuffer], measuring: Bool) throws -> [CameraMotion] {
        let pairs = max(0, frames.count - 1)
        let results = Mutex<[Int: Result<CameraMotion, any Error>]>([:])
        let next = Atomic<Int>(0)
        let workers = max(1, min(pairs, ProcessInfo.processInfo.activeProcessorCount))
        DispatchQueue.concurrentPerform(iterations: workers) { _ in
            while true {
                let pair = next.add(1, ordering: .relaxed).oldValue
                guard pair < pairs else { return }
                let (a, b) = (frames[pair], frames[pair + 1])
                let result = Result {
                    measuring && a.width == b.width && a.height == b.height
                        ? try CameraMotion.estimate(from: a, to: b) : CameraMotion(transform: .identity, confidence: 0)
                }
                results.withLock { $0[pair] = result }
            }
        }
        return try results.withLock { measured in try (0..<pairs).map { try measured[$0]!.get() } }
    }

    /// Both passes: `input` steadied into `output` (H.264 in .mp4, .m4v or .mov).
    /// - Parameters:
    ///   - input: The video to steady (a file: it is read twice).
    ///   - output: Where to write it (.mp4, .m4v or .mov).
    ///   - includeAudio: Copy `input`'s sound (untouched) into `output`.
    ///   - shouldStop: Asked between frames; true ends the run with `CancellationError`
    ///     (`output` is then incomplete: write to a temporary name and rename when done).
    ///   - progress: Called with the pass (1 or 2) and the frames done in it.
    /// - Returns: The plan, the measured motions (one per frame after the first) and what was written.
    /// - Throws: `KameraError` for unreadable input or a failed write (`diskFull` on a full disk).
    public func stabilize(
        input: String, output: URL, includeAudio: Bool = true, shouldStop: () -> Bool = { false },
        progress: (_ pass: Int, _ frames: Int) -> Void = { _, _ in }
    ) throws -> (plan: StabilizationPlan, motions: [CameraMotion], summary: RecordingSummary) {
        let (plan, motions) = try plan(for: input, shouldStop: shouldStop) { progress(1, $0) }
        let reader = try MovieReader(path: input)
        let recorder = try MovieRecorder(
            url: output,
            settings: RecordingSettings(
                width: reader.width & ~1, height: reader.height & ~1, frameRate: reader.frameRate ?? 30, rotation: reader.rotation),
            audioSource: includeAudio ? input : nil)
        var index = 0
        var previous: PixelBuffer?
        let frames = FramePrefetcher(reader)
        defer { frames.cancel() }
        do {
            while let frame = try frames.next() {
                if shouldStop() { throw CancellationError() }
                // A frame whose size differs from the first (a mid-stream change) passes unsteadied.
                let steadied =
                    frame.pixelBuffer.width == plan.width && frame.pixelBuffer.height == plan.height
                    ? try plan.render(frame.pixelBuffer, index: index, previous: previous) : frame.pixelBuffer
                previous = steadied
                _ = try recorder.append(
                    steadied.croppedToEven(width: recorder.settings.width, height: recorder.settings.height), at: frame.time)
                index += 1
                progress(2, index)
            }
            return (plan, motions, try recorder.finish())
        } catch {
            _ = (error as? KameraError).flatMap { recorder.conclude(after: $0) }
            throw error
        }
    }
}
