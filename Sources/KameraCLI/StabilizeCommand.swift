import ArgumentParser
import Foundation
import Kamera
import KameraReports

/// `kamera stabilize`: a shaky video steadied in two passes (motion measured, path smoothed,
/// frames warped), with its sound copied untouched.
struct StabilizeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stabilize",
        abstract: "Steady a shaky video: the camera's path is measured, smoothed and each frame moved onto it.",
        discussion: """
            Two passes over the input: the first measures how the camera moved between frames (shift, roll, zoom; people \
            and cars moving in the scene do not count), the second writes each frame moved onto the smoothed path, \
            magnified just enough — one zoom for the whole video, at most the mode's crop — that no edge shows. \
            Modes as AVFoundation names them: standard removes hand shake and keeps pans; cinematic and \
            cinematic-extended smooth over about one and two seconds and may crop more (12, 16 and 20 % of each side's \
            length at most). The output is H.264 (.mp4, .m4v, .mov) with the input's sound copied and its rotation kept; \
            it appears under its name only when complete. --motions writes one JSON line per frame: \
            {"frame":…,"motion":{…},"confidence":…,"correction":{…}}.
            """)

    @Argument(help: "A video (anything FFmpeg reads); - reads it from standard input.")
    var input: String

    @Option(name: [.short, .long], help: "Where to write the steadied movie (.mp4, .m4v, .mov).")
    var output: String

    @Option(name: .long, help: "standard, cinematic, cinematic-extended, auto or off.")
    var mode: VideoStabilizationMode = .standard

    @Option(name: .long, help: "The most of each side's length the zoom may crop, 0…0.4 (default: the mode's).")
    var maxCrop: Double?

    @Option(name: .long, help: "Write each frame's measured motion and correction here, as JSON lines.")
    var motions: String?

    @Flag(name: .long, help: "Leave the sound out (it is copied untouched otherwise).")
    var noAudio = false

    @OptionGroup var overwrite: OverwriteOptions

    func validate() throws {
        guard URL(fileURLWithPath: output).standardized != URL(fileURLWithPath: input).standardized else {
            throw ValidationError("the output would replace the input: name another file")
        }
        if let maxCrop, !(0...0.4).contains(maxCrop) { throw ValidationError("--max-crop is 0…0.4, not \(maxCrop)") }
        if let motions, motions == output { throw ValidationError("--motions and --output name the same file") }
        try CommandFailure.validating { try MovieRecorder.validateContainer(of: URL(fileURLWithPath: output)) }
    }

    func run() throws {
        try overwrite.runUntilInterrupted(writing: [output, motions]) { interrupt in
            // Two passes need a file: standard input is copied to one first.
            try VideoInput.withSeekablePath(input) { path in
                let partial = PartialOutput(final: output)
                defer { partial.discard() }
                let started = Date()
                var lastReport = 0.0
                let stabilizer = MovieStabilizer(mode: mode, maximumCrop: maxCrop)
                let result: (plan: StabilizationPlan, motions: [CameraMotion], summary: RecordingSummary)
                do {
                    result = try stabilizer.stabilize(
                        input: path, output: partial.url, includeAudio: !noAudio, shouldStop: { interrupt.isRaised }
                    ) { pass, frames in
                        let elapsed = Date().timeIntervalSince(started)
                        guard elapsed - lastReport >= 1 else { return }
                        lastReport = elapsed
                        StandardStreams.progress("stabilize: pass \(pass) of 2, \(frames) frames")
                    }
                } catch is CancellationError {
                    StandardStreams.endProgress()
                    StandardStreams.error("kamera: interrupted; \(output) not written\n")
                    throw ExitCode(130)
                }
                if let motions { try writeMotions(to: motions, measured: result.motions, plan: result.plan) }
                try partial.commit()
                StandardStreams.endProgress()
                StandardStreams.error(
                    String(
                        format: "stabilize: %@: %d frames, %.1f s, zoom %.3f (%.1f %% of each side cropped), %.1f s\n", output,
                        result.summary.frames, result.summary.duration, result.plan.zoom, 100 * (1 - 1 / result.plan.zoom),
                        Date().timeIntervalSince(started)))
            }
        }
    }

    /// The per-frame record of what was measured and done.
    private func writeMotions(to path: String, measured: [CameraMotion], plan: StabilizationPlan) throws {
        let partial = PartialOutput(final: path)
        defer { partial.discard() }
        let file = try CheckedFile(creating: partial.url.path)
        for index in plan.corrections.indices {
            let motion = index > 0 && index - 1 < measured.count ? measured[index - 1] : nil
            let record = MotionRecord(
                frame: index, motion: motion?.transform, confidence: motion?.confidence,
                correction: plan.outputTransform(forFrame: index))
            try file.write(try JSONValueEncoder.encode(record).compact() + "\n")
        }
        try file.close()
        try partial.commit()
    }

    struct MotionRecord: Encodable {
        var frame: Int
        /// From the previous frame to this one (none for the first).
        var motion: SimilarityTransform?
        var confidence: Double?
        /// Captured → written, zoom included.
        var correction: SimilarityTransform
    }
}

extension VideoStabilizationMode: ExpressibleByArgument {}
