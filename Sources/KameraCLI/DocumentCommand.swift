import ArgumentParser
import Foundation
import Kamera
import KameraReports

/// `kamera document`: find the page in a photo, flatten it and clean it up (what iOS's
/// document camera does), optionally reading its text.
struct DocumentCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "document",
        abstract: "Find the document in a photo, write it flattened and whitened, and print its corners as JSON.",
        discussion: """
            Prints {"input":…,"pixelCorners":[topLeft, topRight, bottomRight, bottomLeft],"confidence":…,\
            "output":…,"width":…,"height":…} (pixels, top-left origin); with --recognize also "text", \
            the page's lines. A photo without a document is an error ("no document found", exit 1).
            """)

    @Argument(help: "The photo (JPEG, PNG or WebP).")
    var input: String

    @Option(name: .shortAndLong, help: "The flattened page (PNG, JPEG or WebP by the extension).")
    var output: String

    @Flag(name: .long, help: "Read the page's text and print it.")
    var recognize = false

    @Option(
        name: .long,
        help: ArgumentHelp(
            "With --recognize: the text reader (automatic: PP-OCRv4 for English and Chinese, Tesseract for other languages).",
            valueName: "automatic|tesseract|scene"))
    var textEngine = RecognizeTextRequest.Engine.automatic

    @Flag(name: .long, help: "Keep the photo's lighting instead of whitening the paper.")
    var keepLighting = false

    @Option(name: .long, help: "With --recognize: comma-separated languages (default: eng).")
    var languages = "eng"

    @OptionGroup var overwrite: OverwriteOptions

    func validate() throws {
        if ImageFileFormat(pathExtension: URL(fileURLWithPath: output).pathExtension) == nil {
            throw ValidationError("--output must end in .png, .jpg or .webp")
        }
    }

    func run() throws {
        try CommandFailure.run {
            try overwrite.check(output)
            let image = try Image(contentsOf: URL(fileURLWithPath: input))
            guard let document = try DetectDocumentSegmentationRequest().performSynchronously(on: image).first else {
                throw KameraError.notFound(
                    "document", in: input,
                    hint: "photograph the whole page against a background of another brightness, with all four edges in view")
            }
            let page = try image.pixelBuffer.perspectiveCorrected(to: document.pixelCorners, whitensPaper: !keepLighting)
            try ImageEncoder.write(page, to: URL(fileURLWithPath: output))
            var members: [(String, JSONValue)] = [
                ("input", .string(input)),
                ("pixelCorners", try JSONValueEncoder.encode(RectangleRecord(document).pixelCorners)),
                ("confidence", .number(RecordRounding.score(Double(document.confidence)))),
                ("output", .string(output)), ("width", .int(page.width)), ("height", .int(page.height)),
            ]
            if recognize {
                var request = RecognizeTextRequest(
                    recognitionLanguages: languages.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) })
                request.engine = textEngine
                let lines = try request.performSynchronously(on: Image(pixelBuffer: page))
                members.append(("text", .array(lines.map { .string($0.string) })))
            }
            try StandardStreams.outputLine(JSONValue.object(members).rendered())
        }
    }
}
