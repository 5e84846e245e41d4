import ArgumentParser
import Foundation
import Kamera
import KameraTestMedia

/// Writes rendered text pages with known content (text-dataset) and reads them (text).
struct TextDatasetCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "text-dataset", abstract: "Write the text benchmark pages.")

    @Argument(help: "Output directory.")
    var output: String

    struct Page: Codable {
        var file: String
        var condition: String
        var text: String
        /// Tesseract's code for the page's language (nil: eng).
        var language: String?
    }

    func run() throws {
        let directory = URL(fileURLWithPath: output)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let photo = try SampleMedia.photo("building.jpg").pixelBuffer
        var pages: [Page] = []
        let conditions: [(String, Double, Double, TextScene.Background, Color, Degradation)] = [
            ("clean 24px", 24, 0, .plain(.white), .black, .none),
            ("small 12px", 12, 0, .plain(.white), .black, .none),
            ("rotated 8°", 24, 8, .plain(.white), .black, .none),
            ("rotated -20°", 24, -20, .plain(.white), .black, .none),
            ("light on dark", 24, 0, .plain(Color(red: 20, green: 30, blue: 80)), .white, .none),
            ("noisy, blurred", 24, 0, .noisy(.white, sigma: 25), .black, Degradation(blurSigma: 0.8)),
            ("on a photo", 28, 4, .photo(photo), Color(red: 20, green: 20, blue: 60), .none),
        ]
        for (c, condition) in conditions.enumerated() {
            for (f, fontPath) in TextScene.fonts.enumerated() {
                let lines = (0..<3).map { TextScene.sampleLines[(c + f + $0) % TextScene.sampleLines.count] }
                let scene = TextScene.render(
                    lines, font: try FontFace(path: fontPath), pixelSize: condition.1, color: condition.4,
                    background: condition.3, rotation: condition.2, damage: condition.5, seed: UInt64(c * 10 + f))
                let name = "text_\(c)_\(f).png"
                try ImageEncoder.write(scene.image, to: directory.appendingPathComponent(name))
                pages.append(Page(file: name, condition: condition.0, text: lines.joined(separator: " ")))
            }
        }
        // Chinese pages in WenQuanYi Micro Hei: clean, turned, on a photo.
        let chinese: [(String, Double, TextScene.Background, Color)] = [
            ("Chinese 26px", 0, .plain(.white), .black), ("Chinese rotated 8°", 8, .plain(.white), .black),
            ("Chinese on a photo", 4, .photo(photo), Color(red: 20, green: 20, blue: 60)),
        ]
        for (c, condition) in chinese.enumerated() {
            for variant in 0..<3 {
                let lines = (0..<3).map { TextScene.chineseSampleLines[(c + variant + $0) % TextScene.chineseSampleLines.count] }
                let scene = TextScene.render(
                    lines, font: try FontFace(path: SignScene.chineseFont), pixelSize: 26, color: condition.3, background: condition.2,
                    rotation: condition.1, seed: UInt64(100 + c * 10 + variant))
                let name = "text_zh_\(c)_\(variant).png"
                try ImageEncoder.write(scene.image, to: directory.appendingPathComponent(name))
                pages.append(Page(file: name, condition: condition.0, text: lines.joined(separator: " "), language: "chi_sim"))
            }
        }
        try JSONEncoder().encode(pages).write(to: directory.appendingPathComponent("truth.json"))
        print("wrote \(pages.count) pages to \(directory.path)")
    }
}

/// Reads every page with RecognizeTextRequest: prints JSON [{file, milliseconds, text}].
struct TextCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "text", abstract: "Time text recognition on the text pages.")

    @Argument(help: "Dataset directory.")
    var directory: String

    @Option(help: "fast | accurate")
    var level = "accurate"

    @Option(help: "The reader: \(RecognizeTextRequest.Engine.allCases.map(\.rawValue).joined(separator: " | ")).")
    var engine = RecognizeTextRequest.Engine.automatic.rawValue

    struct Result: Codable {
        var file: String
        var milliseconds: Double
        var text: String
    }

    func run() throws {
        let root = URL(fileURLWithPath: directory)
        let pages = try JSONDecoder().decode(
            [TextDatasetCommand.Page].self, from: Data(contentsOf: root.appendingPathComponent("truth.json")))
        var request = RecognizeTextRequest(recognitionLevel: RecognizeTextRequest.RecognitionLevel(rawValue: level) ?? .accurate)
        guard let engine = RecognizeTextRequest.Engine(rawValue: engine) else { throw ValidationError("unknown engine \(engine)") }
        request.engine = engine
        // Load the engine once, as a long-running program would.
        _ = try request.performSynchronously(on: Image(pixelBuffer: PixelBuffer(width: 8, height: 8, format: .gray8)))
        var results: [Result] = []
        for page in pages {
            // Timed from the file, as the Tesseract CLI is.
            let start = DispatchTime.now().uptimeNanoseconds
            let image = try Image(contentsOf: root.appendingPathComponent(page.file))
            var request = request
            if let language = page.language { request.recognitionLanguages = [language] }
            let lines = try request.performSynchronously(on: image)
            let ms = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
            results.append(Result(file: page.file, milliseconds: ms, text: lines.map(\.string).joined(separator: " ")))
        }
        print(String(decoding: try JSONEncoder().encode(results), as: UTF8.self))
    }
}
