import Foundation
import Kamera
import KameraTestMedia
import KameraTestTiers
import Testing

/// `kamera detect --format json` prints, byte for byte, what it printed before the edge was
/// rebuilt around `AnalysisOptions` (the files in Golden/ were written by the binary of
/// commit e620dbb on the same inputs): flags, defaults and output are unchanged. Text is read
/// with `--text-engine tesseract` here, the engine those files were written with (the default
/// became the automatic choice later; its own output is checked in CLITextTests).
/// `faces-landmarks` and `faces-fast` were written again when the landmarks moved to the
/// attention Face Mesh (refined eyes and lips, irises for pupils): only landmark points and
/// the mesh's angles changed; again when the mesh's crop took MediaPipe's sampling grid
/// (points move by about half a tensor pixel); and when that crop was sampled as OpenCV's 8-bit
/// warp samples it (points move by up to 0.0004 of the image; boxes unchanged).
@Suite(.tier(.endToEnd)) struct GoldenDetectTests {
    static let cases: [(name: String, arguments: [String])] = [
        ("faces-landmarks", ["--faces", "--landmarks", "astronaut.png"]),
        ("faces-whole", ["--faces", "--face-mode", "whole", "messi5.jpg"]),
        ("rectangles", ["--rectangles", "--max", "3", "building.jpg"]),
        ("recognize", ["--text", "--recognize", "--text-engine", "tesseract", "messi5.jpg", "building.jpg"]),
        ("default", ["camera.png", "fruits.jpg"]),
        ("codes", ["--symbologies", "qr,ean13", "--effort", "thorough", "qr.png", "ean13.png"]),
        ("faces-fast", ["--faces", "--face-mode", "fast", "--landmarks", "--min-confidence", "0.6", "astronaut.png", "messi5.jpg"]),
        ("everything", ["--faces", "--text", "--text-engine", "tesseract", "--rectangles", "--barcodes", "qr.png", "messi5.jpg"]),
    ]

    static let golden = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Golden")

    /// The inputs under their own names in one folder, so each result's `input` is the bare name.
    static func inputs() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("kamera-golden-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for name in ["messi5.jpg", "building.jpg", "fruits.jpg", "astronaut.png", "camera.png"] {
            try FileManager.default.copyItem(at: try SampleMedia.url(name), to: folder.appendingPathComponent(name))
        }
        for (symbology, payload, file) in [("qr", "KAMERA-GOLDEN", "qr.png"), ("ean13", "4006381333931", "ean13.png")] {
            var arguments = ["generate", symbology, payload, "-o", folder.appendingPathComponent(file).path]
            if symbology == "qr" { arguments += ["--module-size", "4"] }
            let made = try kamera(arguments)
            #expect(made.status == 0, "\(made.stderr)")
        }
        return folder
    }

    @Test func detectPrintsWhatItPrintedBefore() throws {
        let folder = try Self.inputs()
        defer { try? FileManager.default.removeItem(at: folder) }
        for (name, arguments) in Self.cases {
            let run = try kamera(["detect", "--format", "json"] + arguments, workingDirectory: folder)
            #expect(run.status == 0, "\(name): \(run.stderr)")
            let expected = try String(contentsOf: Self.golden.appendingPathComponent("\(name).json"), encoding: .utf8)
            #expect(run.stdout == expected, "\(name) differs from Golden/\(name).json")
        }
    }
}
