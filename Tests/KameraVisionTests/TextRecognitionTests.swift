import Foundation
import Kamera
import KameraTestMedia
import KameraTestTiers
import Testing

@testable import KameraVision

/// Text recognition on rendered pages with known content and on real scans from packages:
/// Tesseract with its preprocessing, and the automatic choice (PP-OCRv4 for English) where
/// both must read a page.
@Suite(.tier(.models)) struct TextRecognitionTests {
    let lines = Array(TextScene.sampleLines.prefix(3))
    var reference: String { lines.joined(separator: " ") }

    /// A request for one engine (Tesseract unless told).
    static func request(
        _ engine: RecognizeTextRequest.Engine = .tesseract, level: RecognizeTextRequest.RecognitionLevel = .accurate,
        languages: [String] = ["en-US"], minimumTextHeight: Float = 0, usesLanguageCorrection: Bool = true
    ) -> RecognizeTextRequest {
        var request = RecognizeTextRequest(
            recognitionLevel: level, recognitionLanguages: languages, minimumTextHeight: minimumTextHeight,
            usesLanguageCorrection: usesLanguageCorrection)
        request.engine = engine
        return request
    }

    func read(
        _ scene: TextScene, _ level: RecognizeTextRequest.RecognitionLevel = .accurate, engine: RecognizeTextRequest.Engine = .tesseract
    ) async throws -> (cer: Double, observations: [RecognizedTextObservation]) {
        let observations = try await Self.request(engine, level: level).perform(on: scene.image)
        let text = observations.map(\.string).joined(separator: " ")
        return (TextMetrics.characterErrorRate(reference: scene.lines.joined(separator: " "), hypothesis: text), observations)
    }

    @Test(arguments: TextScene.fonts, [RecognizeTextRequest.Engine.tesseract, .automatic])
    func fontsFromDebianPackages(fontPath: String, engine: RecognizeTextRequest.Engine) async throws {
        let scene = TextScene.render(lines, font: try FontFace(path: fontPath), pixelSize: 28)
        let (cer, observations) = try await read(scene, engine: engine)
        #expect(cer < 0.03, "\(fontPath): \(observations.map(\.string))")
        #expect(observations.count == lines.count, "\(observations.map(\.string))")
    }

    @Test(arguments: [11.0, 16, 40, 64])
    func sizes(pixelSize: Double) async throws {
        let scene = TextScene.render(lines, font: try FontFace.standard(), pixelSize: pixelSize)
        let (cer, observations) = try await read(scene)
        #expect(cer < 0.04, "\(pixelSize) px: \(observations.map(\.string))")
    }

    @Test(arguments: [4.0, -9, 17, -28], [RecognizeTextRequest.Engine.tesseract, .automatic])
    func rotatedPagesAreDeskewed(degrees: Double, engine: RecognizeTextRequest.Engine) async throws {
        let scene = TextScene.render(lines, font: try FontFace.standard(), pixelSize: 26, rotation: degrees)
        let (cer, observations) = try await read(scene, engine: engine)
        #expect(cer < 0.04, "\(degrees)°: \(observations.map(\.string))")
        #expect(observations.count == lines.count, "\(observations.map(\.string))")
        if abs(degrees) > 10, engine == .tesseract {
            // Tesseract alone (the fast level) cannot read text this skewed.
            let (fastCER, _) = try await read(scene, .fast)
            #expect(fastCER > cer + 0.2)
        }
    }

    @Test func coloursAndLightOnDark() async throws {
        let font = try FontFace.standard()
        let cases: [(Color, TextScene.Background)] = [
            (.white, .plain(Color(red: 10, green: 30, blue: 90))),  // light on dark
            (.red, .plain(Color(red: 255, green: 240, blue: 150))),
            (.yellow, .plain(.black)),
        ]
        for (color, background) in cases {
            let scene = TextScene.render(lines, font: font, pixelSize: 26, color: color, background: background)
            let (cer, observations) = try await read(scene)
            #expect(cer < 0.04, "\(color): \(observations.map(\.string))")
        }
    }

    @Test func noisyAndPhotographicBackgrounds() async throws {
        let font = try FontFace(path: TextScene.fonts[1])
        let noisy = TextScene.render(
            lines, font: font, pixelSize: 28, background: .noisy(.white, sigma: 25),
            damage: Degradation(blurSigma: 0.7))
        #expect(try await read(noisy).cer < 0.05)
        let photo = TextScene.render(
            lines, font: font, pixelSize: 30, color: Color(red: 20, green: 20, blue: 60),
            background: .photo(try SampleMedia.photo("building.jpg").pixelBuffer), rotation: 6)
        let (cer, observations) = try await read(photo)
        #expect(cer < 0.12, "\(observations.map(\.string))")
        // Tesseract on the page as it is reads almost none of it (CER 0.86 when measured).
        #expect(try await read(photo, .fast).cer > 0.4)
    }

    @Test func boxesWordsAndCharacters() async throws {
        let scene = TextScene.render(["Kamera boxes", "second line here"], font: try FontFace.standard(), pixelSize: 32)
        let detected = try await DetectTextRectanglesRequest(reportCharacterBoxes: true).perform(on: scene.image)
        #expect(detected.count == 2)
        let size = scene.image.size
        // Rendered at margin 48, line pitch 48, 32 px text: line 1 spans y≈48…88.
        let first = try #require(detected.first)
        #expect(first.pixelBox.minY > 40 && first.pixelBox.maxY < 95 && first.pixelBox.minX > 40)
        #expect(first.words.map(\.string) == ["Kamera", "boxes"])
        let kamera = first.words[0]
        #expect(kamera.characterBoxes?.map(\.character).joined() == "Kamera")
        for box in kamera.characterBoxes ?? [] {
            #expect(kamera.pixelBox.intersection(box.pixelBox)?.area ?? 0 > box.pixelBox.area * 0.9)
        }
        // Characters run left to right; normalized boxes use the lower-left origin.
        let xs = (kamera.characterBoxes ?? []).map(\.pixelBox.minX)
        #expect(xs == xs.sorted())
        #expect(abs(first.boundingBox.toImageCoordinates(size).minY - first.pixelBox.minY) < 1e-6)
        #expect(first.boundingBox.y > 0.5)
        let plain = try await DetectTextRectanglesRequest().perform(on: scene.image)
        #expect(plain.first?.characterBoxes == nil && plain.first?.words.first?.characterBoxes == nil)
    }

    @Test func realScansFromPackages() async throws {
        for name in ["imageTextN.png", "imageTextR.png"] {
            let observations = try await Self.request().perform(on: try SampleMedia.photo(name))
            let text = observations.map(\.string).joined(separator: " ")
            for word in ["technical", "courses", "implementation", "conference", "imagery"] {
                #expect(text.contains(word), "\(name) lacks \(word): \(text)")
            }
            #expect(observations.count >= 12)
            #expect(observations.first?.string.hasPrefix("technical details") == true)
        }
    }

    @Test func minimumTextHeightDropsSmallLines() async throws {
        let font = try FontFace.standard()
        var canvas = Canvas(PixelBuffer(width: 900, height: 300, format: .rgb8, filledWith: [255, 255, 255]))
        canvas.draw(text: "BIG HEADLINE", at: PixelPoint(x: 40, y: 30), size: 80, color: .black, font: font)
        canvas.draw(text: "small print under the headline", at: PixelPoint(x: 40, y: 200), size: 22, color: .black, font: font)
        for engine in [RecognizeTextRequest.Engine.tesseract, .scene] {
            let all = try await Self.request(engine).perform(on: canvas.buffer)
            #expect(all.count == 2, "\(engine): \(all.map(\.string))")
            let big = try await Self.request(engine, minimumTextHeight: 0.15).perform(on: canvas.buffer)
            #expect(big.map(\.string) == ["BIG HEADLINE"], "\(engine)")
        }
    }

    @Test func enginesAreReusedAndConcurrentCallsAreSafe() async throws {
        let scene = TextScene.render(lines, font: try FontFace.standard(), pixelSize: 24)
        // A key no other test uses, so the count below is this test's own.
        let request = Self.request(level: .fast, languages: ["eng"], usesLanguageCorrection: false)
        let key = TesseractEngine.Key(languages: ["eng"], usesLanguageCorrection: false)
        for _ in 0..<3 { _ = try await request.perform(on: scene.image) }
        #expect(TesseractEnginePool.shared.createdCount(for: key) == 1)
        let texts = try await withThrowingTaskGroup(of: String.self) { group in
            for _ in 0..<4 { group.addTask { try await request.perform(on: scene.image).map(\.string).joined(separator: " ") } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(texts.count == 4 && Set(texts).count == 1)
        #expect(TextMetrics.characterErrorRate(reference: reference, hypothesis: texts[0]) < 0.03)
    }

    @Test func missingLanguagePackNamesThePackage() async throws {
        let image = PixelBuffer(width: 10, height: 10, format: .gray8, filledWith: [255])
        do {
            _ = try await Self.request(.automatic, languages: ["xyz"]).perform(on: image)
            Issue.record("an unknown language loaded")
        } catch let error as KameraError where error.code == .missingResource {
            #expect(error.reason.contains("xyz") && error.hint.contains("tesseract-ocr-xyz"))
        }
        #expect(TextLanguages.tesseractCode("en-US") == "eng" && TextLanguages.tesseractCode("de-DE") == "deu")
        #expect(TextLanguages.tesseractCode("zh-Hant") == "chi_tra" && TextLanguages.tesseractCode("eng") == "eng")
    }

    @Test func metrics() {
        #expect(TextMetrics.editDistance("kitten", "sitting") == 3)
        #expect(TextMetrics.characterErrorRate(reference: "a  b", hypothesis: "a b") == 0)
    }
}
