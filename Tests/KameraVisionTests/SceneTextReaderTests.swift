import Foundation
import KameraCore
import KameraTestMedia
import KameraTestTiers
import Testing

@testable import KameraVision

/// PP-OCRv4 end to end on KameraNN: signs pasted in perspective on real photos are read,
/// photos without text give nothing.
@Suite("Scene text reading (PP-OCRv4)", .tier(.models))
struct SceneTextReaderTests {
    @Test("A sign turned in perspective is read", arguments: [(UInt64(3), "building.jpg"), (7, "board.jpg"), (11, "messi5.jpg")])
    func sign(seed: UInt64, background: String) throws {
        let scene = try DocumentScene.make(kind: .sign, background: background, seed: seed, width: 960, height: 720)
        let lines = try SceneTextReader(models: .default).lines(in: scene.image)
        #expect(lines.contains { $0.text.replacingOccurrences(of: " ", with: "") == "EXIT24" }, "\(lines.map { ($0.text, $0.confidence) })")
    }

    @Test("RecognizeTextRequest with the scene engine reads a printed page's lines in order, as one observation each")
    func throughTheRequest() async throws {
        var request = RecognizeTextRequest()
        request.engine = .scene
        let lines = try await request.perform(on: try SampleMedia.photo("imageTextN.png"))
        #expect(lines.count == 13, "\(lines.map(\.string))")
        #expect(lines.first?.string == "technical details are too complex to cover in the book itself.")
        #expect(lines.last?.string == "inspiration from three high-level approaches:")
        #expect(lines.allSatisfy { $0.confidence > 0.8 && $0.boundingBox.width > 0.3 })
        // Words and characters with boxes: in order along the line, inside it, one box per character.
        let first = try #require(lines.first)
        #expect(
            first.words.map(\.string)
                == "technical details are too complex to cover in the book itself.".split(separator: " ").map(String.init))
        let line = PixelRect(
            x: first.pixelBox.minX - 2, y: first.pixelBox.minY - 2, width: first.pixelBox.width + 4, height: first.pixelBox.height + 4)
        for (word, next) in zip(first.words, first.words.dropFirst()) {
            #expect(word.pixelBox.maxX <= next.pixelBox.minX + 2, "\(word.string) ends after \(next.string) starts")
        }
        for word in first.words {
            #expect(line.intersection(word.pixelBox)?.area ?? 0 > 0.95 * word.pixelBox.area, "\(word.string)")
            #expect(word.characterBoxes?.map(\.character).joined() == word.string)
        }
        // "technical" spans about a seventh of the line (9 of 62 characters).
        let share = first.words[0].pixelBox.width / first.pixelBox.width
        #expect(share > 0.1 && share < 0.2, "\(share)")
        #expect(first.topCandidates(3).first?.string == first.string)
    }

    @Test("Custom words do not overrule a clear print; a word read exactly stays")
    func customWordsOnAClearPrint() async throws {
        var request = RecognizeTextRequest()
        request.engine = .scene
        let photo = try SampleMedia.photo("imageTextN.png")
        let plain = try await request.perform(on: photo).map(\.string)
        #expect(plain.first == "technical details are too complex to cover in the book itself.")
        // One letter from "technical", but the print says otherwise (each scores −7 or lower).
        request.customWords = ["technica1", "technicaI", "Technical", "technical"]
        #expect(try await request.perform(on: photo).map(\.string) == plain)
    }

    @Test("A page upside down is read the right way up: the direction classifier turns each line over")
    func upsideDown() throws {
        let page = try SampleMedia.photo("imageTextN.png").pixelBuffer
        let reader = SceneTextReader(models: .default)
        let upright = try reader.lines(in: page).map(\.text)
        let turned = try reader.lines(in: page.rotated(byQuarterTurns: 2)).map(\.text)
        #expect(upright.count == 13)
        // Read bottom line first (the page's last line is now at the top), each the right way up
        // (the turned picture is sampled a little differently: a stray space at most).
        #expect(turned.count == upright.count, "\(turned)")
        for (read, truth) in zip(turned, upright.reversed()) {
            #expect(TextMetrics.characterErrorRate(reference: truth, hypothesis: read) < 0.03, "\(read) against \(truth)")
        }
        var unchecked = SceneTextReader.Options()
        unchecked.checksDirection = false
        let garbled = try reader.lines(in: page.rotated(byQuarterTurns: 2), options: unchecked).map(\.text)
        #expect(garbled != turned)
    }

    @Test("A Chinese sign is read as zh-Hans (the automatic choice picks PP-OCRv4), and not as English")
    func chineseSign() async throws {
        let scene = try SignScene.make(seed: 5, language: .chinese)
        var request = RecognizeTextRequest(recognitionLanguages: ["zh-Hans"])
        #expect(request.engine == .automatic && request.sceneReadsLanguages)
        let read = try await request.perform(on: scene.image).map(\.string)
        #expect(read.map { $0.replacingOccurrences(of: " ", with: "") } == scene.lines, "\(read) against \(scene.lines)")
        // Read as English, only Latin letters, digits and marks can come out.
        request.recognitionLanguages = ["en-US"]
        let latin = try await request.perform(on: scene.image).map(\.string).joined()
        #expect(latin.unicodeScalars.allSatisfy { $0.value < 0x3000 }, "\(latin)")
        // A language the scene reader does not read goes to Tesseract.
        request.recognitionLanguages = ["de-DE"]
        #expect(!request.sceneReadsLanguages)
    }

    @Test("Photos without text give no lines (the detector's texture alarms read as nothing)")
    func noText() throws {
        for name in ["fruits.jpg", "baboon.jpg", "orange.jpg"] {
            let lines = try SceneTextReader(models: .default).lines(in: try SampleMedia.photo(name).pixelBuffer)
            #expect(lines.isEmpty, "\(name): \(lines.map { ($0.text, $0.confidence) })")
        }
    }
}
