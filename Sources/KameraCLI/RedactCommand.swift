import ArgumentParser
import Foundation
import Kamera
import KameraReports

/// `kamera redact`: faces (and codes, text, people) covered in a photo or a video, following
/// each one through the frames where its detector misses it.
struct RedactCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "redact",
        abstract: "Cover faces, codes, text or people in a photo or video (blur, pixelate or fill), following them between frames.",
        discussion: """
            A video is read ahead: each face, code or line is tracked, covered on the frames between its sightings, \
            --lead seconds before it is first seen and --hold seconds after it was last seen — a face the detector \
            misses for a frame is still covered. A face the detector loses is followed by its look (--follow), and \
            coasts along its pace while it passes behind another face; following only ever adds cover. The output is H.264 (.mp4, .m4v, .mov) with the input's sound copied \
            untouched and its rotation kept; a photo output (.jpg, .png, .webp) carries no metadata (no location). \
            The output appears under its name only when complete: Ctrl-C or an error leaves nothing there. \
            --audit writes one JSON line per frame: {"frame":…,"t":…,"areas":[{"kind":"face","track":…,\
            "source":"detected|followed|interpolated|held|ahead","box":{…}}]}.
            """)

    @Argument(help: "A photo (JPEG, PNG, WebP) or a video (anything FFmpeg reads); - reads a video from standard input.")
    var input: String

    @Option(name: [.short, .long], help: "Where to write: a photo (.jpg, .png, .webp) or a movie (.mp4, .m4v, .mov).")
    var output: String

    @OptionGroup(title: "What to cover (faces when nothing is named) and how") var redaction: RedactionArguments

    @Option(name: .long, help: "Write what was covered on each frame here, as JSON lines.")
    var audit: String?

    @Flag(name: .long, help: "Leave the sound out of a video (it is copied untouched otherwise).")
    var noAudio = false

    @OptionGroup var overwrite: OverwriteOptions

    func validate() throws {
        guard URL(fileURLWithPath: output).standardized != URL(fileURLWithPath: input).standardized else {
            throw ValidationError("the output would replace the input: name another file")
        }
        if let audit, audit == output { throw ValidationError("--audit and --output name the same file") }
        if ImageEncoding(pathExtension: URL(fileURLWithPath: output).pathExtension) == nil {
            try CommandFailure.validating { try MovieRecorder.validateContainer(of: URL(fileURLWithPath: output)) }
        }
    }

    func run() throws {
        try overwrite.runUntilInterrupted(writing: [output, audit]) { interrupt in
            let configuration = try redaction.options().configuration()
            // The audit, like the output, appears under its name only once complete.
            let auditFile = audit.map(PartialOutput.init(final:))
            defer { auditFile?.discard() }
            let lines = try auditFile.map { try CheckedFile(creating: $0.url.path) }
            if input != "-", try Self.isPhoto(input) {
                try redactPhoto(configuration, audit: lines)
            } else {
                try redactVideo(configuration, audit: lines, until: interrupt)
            }
            try lines?.close()
            try auditFile?.commit()
        }
    }

    /// Whether the input's first bytes are a photo's (a video otherwise, whatever its name).
    private static func isPhoto(_ path: String) throws -> Bool {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw KameraError.unreadableFile(path: path, reason: "no such file, or not readable")
        }
        defer { try? handle.close() }
        return ImageFileFormat.detect((try? handle.read(upToCount: 32)) ?? Data()) != nil
    }

    private func redactPhoto(_ configuration: Redactor.Configuration, audit: CheckedFile?) throws {
        guard let encoding = ImageEncoding(pathExtension: URL(fileURLWithPath: output).pathExtension) else {
            throw KameraError.invalidArgument("\(input) is a photo: write it as .jpg, .png or .webp, not \(output)")
        }
        let image = try Image(contentsOf: URL(fileURLWithPath: input))
        let redacted = try Redactor(configuration: configuration).redact(image)
        try ImageEncoder.write(redacted.pixelBuffer, to: URL(fileURLWithPath: output), as: encoding)
        try audit?.write(try JSONValueEncoder.encode(RedactionRecord(redacted)).compact() + "\n")
        StandardStreams.error("redact: \(output): \(Self.describe(redacted.regions, people: redacted.personBounds != nil))\n")
    }

    private func redactVideo(_ configuration: Redactor.Configuration, audit: CheckedFile?, until interrupt: InterruptFlag) throws {
        guard ImageEncoding(pathExtension: URL(fileURLWithPath: output).pathExtension) == nil else {
            throw KameraError.invalidArgument("\(input) is a video: write it as .mp4, .m4v or .mov, not \(output)")
        }
        let reader = try MovieReader(path: VideoInput.streamed(input))
        let rate = reader.frameRate ?? 30
        let partial = PartialOutput(final: output)
        defer { partial.discard() }
        let recorder = BackgroundMovieWriter(
            try MovieRecorder(
                url: partial.url,
                settings: RecordingSettings(
                    width: reader.width & ~1, height: reader.height & ~1, frameRate: rate, rotation: reader.rotation),
                audioSource: noAudio || input == "-" ? nil : input))
        let redactor = try StreamRedactor(configuration: configuration, rotation: reader.rotation)
        // A hostile file can claim any duration: only a plausible one becomes a frame count.
        let frames = reader.duration.map { $0 * rate }.flatMap { $0.isFinite && $0 >= 1 && $0 < 1e9 ? Int($0.rounded()) : nil }
        var progress = RedactionProgress(total: frames)
        func write(_ frames: [RedactedFrame]) throws {
            for frame in frames {
                try recorder.append(frame.pixelBuffer.croppedToEven(width: recorder.width, height: recorder.height), at: frame.time)
                try audit?.write(try JSONValueEncoder.encode(RedactionRecord(frame)).compact() + "\n")
                progress.count(frame)
            }
        }
        // Decoding on a thread of its own overlaps it with the scan (a few frames ahead).
        let prefetched = FramePrefetcher(reader, capacity: 4)
        defer { prefetched.cancel() }
        while let frame = try prefetched.next() {
            if interrupt.isRaised {
                StandardStreams.endProgress()
                StandardStreams.error("kamera: interrupted; \(output) not written\n")
                throw ExitCode(130)
            }
            try write(try redactor.push(frame.pixelBuffer, at: frame.time))
        }
        try write(redactor.finish())
        let summary = try recorder.finish()
        try partial.commit()
        progress.report(force: true)
        StandardStreams.endProgress()
        StandardStreams.error(
            String(format: "redact: %@: %d frames, %.1f s, %@\n", output, summary.frames, summary.duration, progress.summary))
    }

    /// "2 faces, 1 code covered" for a photo.
    static func describe(_ regions: [RedactionRegion], people: Bool) -> String {
        var counts: [RedactionKind: Int] = [:]
        for region in regions { counts[region.kind, default: 0] += 1 }
        var parts = counts.sorted { $0.key < $1.key }.map { RedactionProgress.counted($0.value, $0.key) }
        if people { parts.append("people") }
        return parts.isEmpty ? "nothing found to cover" : parts.joined(separator: ", ") + " covered"
    }
}
