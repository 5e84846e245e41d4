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
        #expect(lines.allSatisfy { $0.confidence > 0.8 && $0.words.isEmpty && $0.boundingBox.width > 0.3 })
    }

    @Test("Photos without text give no lines (the detector's texture alarms read as nothing)")
    func noText() throws {
        for name in ["fruits.jpg", "baboon.jpg", "orange.jpg"] {
            let lines = try SceneTextReader(models: .default).lines(in: try SampleMedia.photo(name).pixelBuffer)
            #expect(lines.isEmpty, "\(name): \(lines.map { ($0.text, $0.confidence) })")
        }
    }
}
