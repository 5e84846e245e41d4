import ArgumentParser
import Dispatch
import Foundation
import Kamera
import KameraReports

/// `kamera detect`: analyse image files and print one JSON document.
struct DetectCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "detect",
        abstract: "Detect barcodes, faces, text and rectangles in images (JPEG, PNG, WebP) and print the results as JSON.",
        discussion: """
            Prints {"results":[{"input":…,"width":…,"height":…,"barcodes":[…],"faces":[…]}]}. boundingBox is \
            normalized with a lower-left origin like Apple's Vision; pixelCorners are pixels with a \
            top-left origin, ordered topLeft, topRight, bottomRight, bottomLeft. Face angles (roll, yaw, \
            pitch) are degrees; landmark points are normalized to the face box. A file that fails gets \
            an "error" entry, the others are still processed, and the exit code is 1; a damaged JPEG that \
            was mostly decoded gets a "warning". FILE - reads standard input: an image, or a list of \
            paths one per line.
            """
    )

    @OptionGroup(title: "What to detect") var analysis: AnalysisArguments

    @Option(name: .long, help: "Draw the results onto a copy of the image: a file for one input, a directory for several.")
    var annotate: String?

    @Option(
        name: .long,
        help: "Write the person mask (--person-mask) as an 8-bit PNG: a file for one input, a directory for several.")
    var maskOut: String?

    @Option(name: .long, help: "Output format: json (one document), jsonl (one line per file as it finishes) or table.")
    var format: DetectionOutput.Format?

    @Option(name: .long, parsing: .unconditional, help: "Files analysed at once (default: one per core).")
    var jobs: Int?

    @Flag(name: .long, help: "Print each result as soon as it is ready instead of in input order.")
    var unordered = false

    @Option(name: .long, help: "Append JSON Lines results to this file and skip the inputs it already holds (restartable batches).")
    var resume: String?

    @Option(name: .long, help: "Analyse only part I of N of the inputs (every N-th from the I-th, from 0), e.g. 3/8.")
    var shard: String?

    @Option(name: .long, parsing: .unconditional, help: "Refuse images with more pixels than this (decompression-bomb guard).")
    var maxPixels = ImageDecodingOptions().maximumPixelCount

    @Flag(name: .long, help: "Treat any damage in a JPEG as an error instead of analysing what was decoded.")
    var strict = false

    @OptionGroup var overwrite: OverwriteOptions

    @Argument(help: "Image files; - reads standard input (an image, or paths one per line).")
    var files: [String]

    func validate() throws {
        guard !files.isEmpty else { throw ValidationError("give at least one image file or directory") }
        if let jobs, jobs < 1 { throw ValidationError("--jobs must be at least 1") }
        if let shard, Shard(shard) == nil { throw ValidationError("--shard must be I/N with 0 ≤ I < N, e.g. 0/4") }
        if maskOut != nil, analysis.personMask == nil { throw ValidationError("--mask-out needs --person-mask QUALITY") }
        if resume != nil, let format, format != .jsonl {
            throw ValidationError("--resume writes JSON Lines; drop --format or use --format jsonl")
        }
        if resume != nil, annotate != nil, !(annotate!.hasSuffix("/")) {
            throw ValidationError("with --resume, --annotate must be a directory (ending in /)")
        }
        guard maxPixels > 0 else { throw ValidationError("--max-pixels must be positive") }
    }

    func run() async throws {
        try await CommandFailure.run { try await detect() }
    }

    private func detect() async throws {
        var inputs = try DetectInput.resolve(files)
        if let shard = shard.flatMap(Shard.init) {
            inputs = inputs.enumerated().filter { shard.contains(position: $0.offset) }.map(\.element)
        }
        let log = try resume.map(ResumeLog.init(path:))
        var skipped = 0
        if let done = log?.finishedInputs, !done.isEmpty {
            let before = inputs.count
            inputs.removeAll { done.contains($0.name) }
            skipped = before - inputs.count
        }
        let analysis = try analysis.options().imageAnalysis()
        let annotationTargets = try perInputPaths(annotate, flag: "--annotate", suffix: "annotated", for: inputs)
        let maskTargets = try perInputPaths(maskOut, flag: "--mask-out", suffix: "mask", for: inputs)
        try overwrite.check((annotationTargets ?? []) + (maskTargets ?? []))
        // Codes and text read luminance only; faces and annotations need colour.
        let decoding = ImageDecodingOptions(
            maximumPixelCount: maxPixels, acceptsDamagedData: !strict,
            decodesLuminanceOnly: !analysis.needsColour && annotationTargets == nil)
        let output = DetectionOutput(format: log != nil ? .jsonl : format ?? .json, file: try log?.open())
        let progress = BatchProgress(
            total: inputs.count, skipped: skipped,
            shown: StandardStreams.isTerminal(STDERR_FILENO) && (inputs.count > 1 || log != nil))
        let jobs = self.jobs ?? max(1, ProcessInfo.processInfo.activeProcessorCount)
        var failures = 0
        // Files are independent: `jobs` at a time, each on an analysis thread (not the
        // cooperative pool, see AnalysisExecutor); results leave in input order unless --unordered, holding at most
        // a few per job while an earlier, slower file finishes.
        try await withThrowingTaskGroup(of: (Int, DetectionReport.FileResult).self) { group in
            var nextToStart = 0, nextToWrite = 0, running = 0
            var waiting: [Int: DetectionReport.FileResult] = [:]
            func startMore() {
                while running < jobs, nextToStart < inputs.count, waiting.count < 4 * jobs {
                    let index = nextToStart, input = inputs[index]
                    let targets = Targets(annotated: annotationTargets?[index], mask: maskTargets?[index])
                    group.addTask {
                        try await AnalysisExecutor.run {
                            (index, Self.analyse(input, analysis: analysis, decoding: decoding, writing: targets))
                        }
                    }
                    nextToStart += 1
                    running += 1
                }
            }
            func emit(_ result: DetectionReport.FileResult) throws {
                try output.write(result)
                if result.error != nil { failures += 1 }
                progress.advance(failed: result.error != nil)
            }
            startMore()
            while let (index, result) = try await group.next() {
                running -= 1
                if unordered {
                    try emit(result)
                } else {
                    waiting[index] = result
                    while let ready = waiting.removeValue(forKey: nextToWrite) {
                        try emit(ready)
                        nextToWrite += 1
                    }
                }
                startMore()
            }
        }
        try output.finish()
        progress.finish()
        if let log {
            // Results went to the file; say what happened so a log or a scheduler sees it.
            StandardStreams.error("kamera: \(inputs.count) files analysed (\(failures) failed), \(skipped) already in \(log.path)\n")
        }
        if failures > 0 { throw ExitCode(1) }
    }

    /// The pictures one input's analysis writes beside its results.
    private struct Targets: Sendable {
        var annotated: String?
        var mask: String?
    }

    /// Where each input's picture for `flag` goes: `path` itself for one input, a file
    /// `NAME.SUFFIX.png` in the directory `path` for several.
    private func perInputPaths(_ path: String?, flag: String, suffix: String, for inputs: [DetectInput]) throws -> [String]? {
        guard let path else { return nil }
        if inputs.count == 1 && !path.hasSuffix("/") {
            guard ImageFileFormat(pathExtension: URL(fileURLWithPath: path).pathExtension) != nil else {
                throw KameraError.invalidArgument("\(flag) \(path) must end in .png, .jpg or .webp (or / for a directory)")
            }
            return [path]
        }
        do {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        } catch {
            throw KameraError.writeFailed(path: path, reason: "cannot create the \(flag) directory: \(error.localizedDescription)")
        }
        var used = Set<String>()
        return inputs.map { input in
            var stem = input.name == "-" ? "stdin" : URL(fileURLWithPath: input.name).deletingPathExtension().lastPathComponent
            while used.contains(stem) { stem += "_" }
            used.insert(stem)
            return URL(fileURLWithPath: path).appendingPathComponent("\(stem).\(suffix).png").path
        }
    }

    private static func analyse(
        _ input: DetectInput, analysis: ImageAnalysis, decoding: ImageDecodingOptions,
        writing targets: Targets
    ) -> DetectionReport.FileResult {
        var result = DetectionReport.FileResult(input: input.name)
        do {
            let image = try input.image(options: decoding)
            let findings = try analysis.analyse(image, into: &result)
            if let target = targets.annotated {
                try ImageEncoder.write(try findings.drawn(on: image.pixelBuffer), to: URL(fileURLWithPath: target))
                result.annotated = target
            }
            if let target = targets.mask, let mask = findings.personMask {
                try ImageEncoder.write(mask.pixelBuffer, to: URL(fileURLWithPath: target))
            }
        } catch {
            result.error = DetectionReport.FileError((error as? KameraError).map(CommandLineHints.adapted) ?? error)
        }
        return result
    }
}
