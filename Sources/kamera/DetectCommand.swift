import ArgumentParser
import Foundation
import Kamera

/// `kamera detect`: analyse image files and print one JSON document.
struct DetectCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "detect",
        abstract: "Detect barcodes, faces and text in images (JPEG, PNG, WebP) and print the results as JSON.",
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

    enum OutputFormat: String, ExpressibleByArgument, CaseIterable { case json, table }

    @Flag(name: .long, help: "Detect barcodes (the default when no detector is named).")
    var barcodes = false

    @Flag(name: .long, help: "Detect faces (BlazeFace via KameraNN) with roll, yaw and pitch.")
    var faces = false

    @Flag(name: .long, help: "With --faces: add landmark regions (Face Mesh and Iris); angles then come from the 3-D mesh.")
    var landmarks = false

    @Option(name: .long, parsing: .unconditional, help: "With --faces: smallest face side in pixels to look for (default: max(20, 1% of the long side)).")
    var minFaceSize: Double?

    @Option(name: .long, parsing: .unconditional, help: "With --faces: lowest confidence reported, 0…1 (default 0.5).")
    var minConfidence: Float?

    @Flag(name: .long, help: "Detect text lines, words and character boxes.")
    var text = false

    @Flag(name: .long, help: "With --text: recognize text (accurate level) instead of only finding it.")
    var recognize = false

    @Option(name: .long, help: "With --text: comma-separated languages, Tesseract codes or BCP 47 (default: eng).")
    var languages = "eng"

    @Option(name: .long, help: "Comma-separated symbologies to look for (default: all). See `kamera symbologies`.")
    var symbologies: String?

    @Flag(name: .long, help: "Spend more effort: extra passes for damaged, tiny or diagonal linear codes (same as --effort thorough).")
    var tryHarder = false

    @Option(name: .long, help: "fast | balanced | thorough (default: balanced).")
    var effort: String?

    @Option(name: .long, help: "Draw the results onto a copy of the image: a file for one input, a directory for several.")
    var annotate: String?

    @Option(name: .long, help: "Output format: json or table.")
    var format: OutputFormat = .json

    @Option(name: .long, parsing: .unconditional, help: "Refuse images with more pixels than this (decompression-bomb guard).")
    var maxPixels = ImageDecodingOptions().maximumPixelCount

    @Flag(name: .long, help: "Treat any damage in a JPEG as an error instead of analysing what was decoded.")
    var strict = false

    @OptionGroup var overwrite: OverwriteOptions

    @Argument(help: "Image files; - reads standard input (an image, or paths one per line).")
    var files: [String]

    func validate() throws {
        guard !files.isEmpty else { throw ValidationError("give at least one image file") }
        guard maxPixels > 0 else { throw ValidationError("--max-pixels must be positive") }
        if let minFaceSize, !(minFaceSize.isFinite && minFaceSize > 0) { throw ValidationError("--min-face-size must be a positive number of pixels") }
        if let minConfidence, !(0...1).contains(minConfidence) { throw ValidationError("--min-confidence must be between 0 and 1") }
        if let effort, DetectBarcodesRequest.Effort(rawValue: effort) == nil {
            throw ValidationError("--effort must be fast, balanced or thorough")
        }
        if let symbologies { _ = try parsedSymbologies(symbologies) }
    }

    private func parsedSymbologies(_ text: String) throws -> [BarcodeSymbology] {
        do {
            let list = try BarcodeSymbology.parseList(text)
            guard !list.isEmpty else { throw ValidationError("--symbologies is empty") }
            return list
        } catch let error as KameraError {
            throw ValidationError(error.reason)
        }
    }

    func run() async throws {
        try await CommandFailure.run { try await detect() }
    }

    private func detect() async throws {
        let inputs = try DetectInput.resolve(files)
        let chosenEffort: DetectBarcodesRequest.Effort = tryHarder ? .thorough : (effort.flatMap(DetectBarcodesRequest.Effort.init) ?? .balanced)
        let request = DetectBarcodesRequest(symbologies: try symbologies.map(parsedSymbologies) ?? BarcodeSymbology.allCases,
                                            effort: chosenEffort)
        var faceRequest = DetectFaceRectanglesRequest(minimumFaceSize: minFaceSize)
        if let minConfidence { faceRequest.minimumConfidence = minConfidence }
        let analysis = Analysis(barcodes: barcodes || (!text && !faces && !landmarks) ? request : nil,
                                faces: faces || landmarks ? FaceAnalysis(detection: faceRequest, landmarks: landmarks) : nil,
                                text: text ? TextAnalysis(recognize: recognize, languages: languages.split(separator: ",").map {
                                    $0.trimmingCharacters(in: .whitespaces) }) : nil)
        let annotationTargets = try annotationPaths(for: inputs)
        try overwrite.check(annotationTargets ?? [])
        let decoding = ImageDecodingOptions(maximumPixelCount: maxPixels, acceptsDamagedData: !strict)

        // Files are independent: analyse them concurrently, report them in the order given.
        let results = await withTaskGroup(of: (Int, DetectionReport.FileResult).self) { group in
            var next = 0
            var collected: [(Int, DetectionReport.FileResult)] = []
            let width = max(1, ProcessInfo.processInfo.activeProcessorCount)
            func addTask(_ index: Int) {
                let input = inputs[index], target = annotationTargets?[index]
                group.addTask { (index, Self.analyse(input, analysis: analysis, decoding: decoding, annotateTo: target)) }
            }
            while next < min(width, inputs.count) { addTask(next); next += 1 }
            for await result in group {
                collected.append(result)
                if next < inputs.count { addTask(next); next += 1 }
            }
            return collected.sorted { $0.0 < $1.0 }.map(\.1)
        }
        let report = DetectionReport(results: results)
        try StandardStreams.outputLine(format == .json ? try report.json() : report.table())
        if results.contains(where: { $0.error != nil }) { throw ExitCode(1) }
    }

    /// Where each input's annotated copy goes: the path itself for one input, a file in the
    /// directory for several.
    private func annotationPaths(for inputs: [DetectInput]) throws -> [String]? {
        guard let annotate else { return nil }
        if inputs.count == 1 && !annotate.hasSuffix("/") {
            guard ImageFileFormat(pathExtension: URL(fileURLWithPath: annotate).pathExtension) != nil else {
                throw KameraError.invalidArgument("--annotate \(annotate) must end in .png, .jpg or .webp (or / for a directory)")
            }
            return [annotate]
        }
        do {
            try FileManager.default.createDirectory(atPath: annotate, withIntermediateDirectories: true)
        } catch {
            throw KameraError.writeFailed(path: annotate, reason: "cannot create the annotation directory: \(error.localizedDescription)")
        }
        var used = Set<String>()
        return inputs.map { input in
            var stem = input.name == "-" ? "stdin" : URL(fileURLWithPath: input.name).deletingPathExtension().lastPathComponent
            while used.contains(stem) { stem += "_" }
            used.insert(stem)
            return URL(fileURLWithPath: annotate).appendingPathComponent("\(stem).annotated.png").path
        }
    }

    /// What to run on each file.
    struct Analysis: Sendable {
        var barcodes: DetectBarcodesRequest?
        var faces: FaceAnalysis?
        var text: TextAnalysis?
    }

    struct FaceAnalysis: Sendable {
        var detection: DetectFaceRectanglesRequest
        var landmarks: Bool
    }

    struct TextAnalysis: Sendable {
        var recognize: Bool
        var languages: [String]
    }

    private static func analyse(_ input: DetectInput, analysis: Analysis, decoding: ImageDecodingOptions,
                                annotateTo target: String?) -> DetectionReport.FileResult {
        var result = DetectionReport.FileResult(input: input.name)
        do {
            let image = try input.image(options: decoding)
            result.width = image.width
            result.height = image.height
            result.warning = image.damage
            let context = ImageAnalysisContext(image)
            var codes: [BarcodeObservation] = []
            if let request = analysis.barcodes {
                codes = try request.perform(in: context)
                result.barcodes = codes.map(BarcodeRecord.init)
            }
            var faces: [FaceObservation] = []
            if let request = analysis.faces {
                faces = request.landmarks
                    ? try DetectFaceLandmarksRequest(faceDetection: request.detection).perform(in: context)
                    : try request.detection.perform(in: context)
                result.faces = faces.map(FaceRecord.init)
            }
            var lines: [TextObservation] = []
            if let text = analysis.text {
                if text.recognize {
                    let recognized = try RecognizeTextRequest(recognitionLanguages: text.languages).perform(in: context)
                    result.text = recognized.map(TextRecord.init)
                    lines = recognized.map(\.textObservation)
                } else {
                    lines = try DetectTextRectanglesRequest(reportCharacterBoxes: true, languages: text.languages).perform(in: context)
                    result.text = lines.map(TextRecord.init)
                }
            }
            if let target {
                var canvas = Canvas(image.pixelBuffer)
                FaceOverlay().draw(faces, on: &canvas)
                TextOverlay().draw(lines, on: &canvas)
                BarcodeOverlay().draw(codes, on: &canvas, font: try FontFace.standard())
                try ImageEncoder.write(canvas.buffer, to: URL(fileURLWithPath: target))
                result.annotated = target
            }
        } catch {
            result.error = DetectionReport.FileError(error)
        }
        return result
    }
}
