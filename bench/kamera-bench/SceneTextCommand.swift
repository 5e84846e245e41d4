import ArgumentParser
import Foundation
import Kamera
import KameraTestMedia

/// The scene-text benchmark's Kamera side: makes the sign scenes for the given seeds (PNG and
/// the truth, for the peers to read the same files), reads each with the scene engine and with
/// Tesseract (the accurate level), and prints one JSON line per photo with the lines read and
/// the time from decoded image to text (after one warm-up read).
struct SceneTextCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "scene-text", abstract: "Make sign scenes and read them with both text engines.")

    @Option(help: "Directory for the scenes (PNG) and truth.json.")
    var out: String

    @Option(help: "First seed.")
    var seed: UInt64 = 0

    @Option(help: "Number of scenes.")
    var count = 12

    @Option(help: "The signs' language: english or chinese (read as zh-Hans).")
    var language = "english"

    func run() throws {
        guard let language = SignScene.Language(rawValue: language) else { throw ValidationError("unknown language \(language)") }
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        var truth: [String: [String]] = [:]
        var scenes: [(String, SignScene)] = []
        for index in 0..<count {
            let scene = try SignScene.make(seed: seed + UInt64(index), language: language)
            let path = URL(fileURLWithPath: out).appendingPathComponent("sign_\(seed + UInt64(index)).png").path
            try ImageEncoder.encode(scene.image, as: .png).write(to: URL(fileURLWithPath: path))
            truth[path] = scene.lines
            scenes.append((path, scene))
        }
        try JSONSerialization.data(withJSONObject: truth, options: [.sortedKeys]).write(
            to: URL(fileURLWithPath: out).appendingPathComponent("truth.json"))
        func read(_ engine: RecognizeTextRequest.Engine, _ image: PixelBuffer) throws -> ([String], Double) {
            var request = RecognizeTextRequest(recognitionLanguages: language == .chinese ? ["zh-Hans"] : ["en-US"])
            request.engine = engine
            let start = DispatchTime.now().uptimeNanoseconds
            let lines = try request.perform(in: ImageAnalysisContext(Image(pixelBuffer: image))).map(\.string)
            return (lines, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
        }
        if let first = scenes.first {
            _ = try read(.scene, first.1.image)
            _ = try read(.tesseract, first.1.image)
        }
        for (path, scene) in scenes {
            let (sceneLines, sceneMs) = try read(.scene, scene.image)
            let (tesseractLines, tesseractMs) = try read(.tesseract, scene.image)
            let record: [String: Any] = [
                "file": path, "truth": scene.lines, "scene": sceneLines, "sceneMs": sceneMs, "tesseract": tesseractLines,
                "tesseractMs": tesseractMs,
            ]
            print(String(decoding: try JSONSerialization.data(withJSONObject: record, options: [.sortedKeys]), as: UTF8.self))
        }
    }
}
