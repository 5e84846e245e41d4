import Foundation
import Kamera
import KameraTestMedia
import KameraTestTiers
import Testing

@testable import KameraVision

/// Text on a live stream: found at its own pace by PP-OCRv4 (the automatic choice), on a
/// thread of its own, while faces are followed on every frame; an unchanged line is not read
/// again.
@Suite("Live text", .tier(.models))
struct LiveTextTests {
    /// A room with a green sign ("EXIT 24" over "Platform 3") on the wall, 640×480.
    static func frame() throws -> PixelBuffer {
        let room = try SampleMedia.photo("home.jpg").pixelBuffer.converted(to: .rgb8).resized(width: 640, height: 480)
        var canvas = Canvas(room)
        canvas.fill(rect: PixelRect(x: 380, y: 250, width: 230, height: 110), color: Color(red: 30, green: 120, blue: 60))
        let font = try FontFace.standard()
        for (row, line) in ["EXIT 24", "Platform 3"].enumerated() {
            canvas.draw(text: line, at: PixelPoint(x: 395, y: 262 + 48 * Double(row)), size: 36, color: .white, font: font)
        }
        return canvas.buffer
    }

    @Test("A sign on a stream is read while every frame is scanned")
    func signOnAStream() async throws {
        let scanner = try LiveScanner(configuration: LiveScanner.Configuration(text: DetectTextRectanglesRequest()))
        let frame = try Self.frame()
        var found: FoundText?
        for index in 0..<90 where found == nil {
            let scan = try scanner.scan(frame, at: Double(index) / 30)
            found = scan.text
            try await Task.sleep(nanoseconds: 33_000_000)
        }
        let text = try #require(found, "no text within three seconds of frames")
        #expect(text.lines.map(\.string) == ["EXIT 24", "Platform 3"])
        // Words come with boxes on the sign.
        let sign = PixelRect(x: 370, y: 240, width: 250, height: 130)
        for line in text.lines {
            #expect(sign.intersection(line.pixelBox)?.area ?? 0 > 0.9 * line.pixelBox.area, "\(line.string) at \(line.pixelBox)")
        }
    }

    @Test("A line seen again in place, looking the same, is recalled; moved or changed, it is not")
    func memory() throws {
        let frame = try Self.frame()
        let quad = Quad(
            topLeft: PixelPoint(x: 390, y: 258), topRight: PixelPoint(x: 540, y: 258), bottomRight: PixelPoint(x: 540, y: 302),
            bottomLeft: PixelPoint(x: 390, y: 302))
        let line = SceneTextReader.LineFrame(
            origin: quad.topLeft, across: quad.topRight - quad.topLeft, down: quad.bottomLeft - quad.topLeft, columnFraction: 1)
        let thumbnail = SceneTextReader.thumbnail(line, in: frame)
        let memory = SceneLineMemory()
        memory.remember(
            SceneLineMemory.Entry(
                corners: quad, thumbnail: thumbnail, flipped: false,
                readings: [CTCDecoder.Reading(characters: [], confidence: 0.9)], columnFraction: 0.01, lastUsed: 0))
        #expect(memory.recall(quad, thumbnail: thumbnail) != nil)
        // Moved by a whole line height: another line.
        let moved = Quad(
            topLeft: PixelPoint(x: 390, y: 306), topRight: PixelPoint(x: 540, y: 306), bottomRight: PixelPoint(x: 540, y: 350),
            bottomLeft: PixelPoint(x: 390, y: 350))
        #expect(memory.recall(moved, thumbnail: thumbnail) == nil)
        // In place but looking different (the room, not the sign).
        var other = thumbnail
        for i in other.indices { other[i] = other[i] > 128 ? 0 : 255 }
        #expect(memory.recall(quad, thumbnail: other) == nil)
    }
}
