import KameraCore
import KameraVision

/// Draws text results as seed 004 does: each word's box, and each character's box inside it.
public struct TextOverlay: Sendable {
    public var wordColor = Color.blue
    public var characterColor = Color(red: 0, green: 200, blue: 255).withOpacity(0.8)

    public init() {}

    /// Draws the words (and their character boxes, where present) of `lines`.
    public func draw(_ lines: [TextObservation], on canvas: inout Canvas) {
        let width = max(1.5, Double(max(canvas.buffer.width, canvas.buffer.height)) / 600)
        for word in lines.flatMap({ $0.words.isEmpty ? [$0] : $0.words }) {
            // Corners, not axis-aligned boxes: on skewed text the quads follow the lines.
            for character in word.characterBoxes ?? [] {
                canvas.stroke(character.pixelCorners.corners, closed: true, lineWidth: max(1, width / 2), color: characterColor)
            }
            canvas.stroke(word.pixelCorners.corners, closed: true, lineWidth: width, color: wordColor)
        }
    }
}
