import KameraCore

/// Places the labels of one overlay: each fully inside the canvas, none on another. Labels
/// are tried at their preferred positions in order, then moved away from the ones in the
/// way, so two codes side by side get two readable labels instead of one on top of the other.
public struct LabelLayout: Sendable {
    public let canvasSize: Size
    /// The labels placed so far.
    public private(set) var placed: [PixelRect] = []

    public init(canvasSize: Size) {
        self.canvasSize = canvasSize
    }

    /// Reserves room for a `width` × `height` label and returns where it goes: the first of
    /// `preferred` (top-left corners) that lies inside the canvas and clear of earlier labels;
    /// failing that, the nearest clear spot found by sliding the first preference up and
    /// down; failing that (a crowded canvas), the first preference kept inside the canvas.
    public mutating func place(width: Double, height: Double, preferred: [PixelPoint]) -> PixelRect {
        let clamped = preferred.map { clampedRect(origin: $0, width: width, height: height) }
        var choice = clamped.first { isFree($0) }
        if choice == nil, let first = clamped.first {
            let step = height * 0.5
            let limit = Int((canvasSize.height / step).rounded(.up))
            search: for k in 1...max(1, limit) {
                for direction in [1.0, -1.0] {
                    let candidate = clampedRect(
                        origin: PixelPoint(x: first.x, y: first.y + direction * Double(k) * step),
                        width: width, height: height)
                    if isFree(candidate) { choice = candidate; break search }
                }
            }
        }
        let rect = choice ?? clamped.first ?? PixelRect(x: 0, y: 0, width: width, height: height)
        placed.append(rect)
        return rect
    }

    private func isFree(_ rect: PixelRect) -> Bool {
        placed.allSatisfy { $0.intersection(rect) == nil }
    }

    private func clampedRect(origin: PixelPoint, width: Double, height: Double) -> PixelRect {
        let x = max(0, min(canvasSize.width - width, origin.x))
        let y = max(0, min(canvasSize.height - height, origin.y))
        return PixelRect(x: x, y: y, width: width, height: height)
    }
}

extension FontFace {
    /// The size (at most `size`, at least 8 px) and text that fit in `maximumWidth` pixels:
    /// the font shrinks first, then the text is shortened with an ellipsis, so a long message
    /// on a small frame is still shown whole or clearly cut, never clipped by the edge.
    func fitting(_ text: String, size: Double, maximumWidth: Double) -> (text: String, size: Double, bitmap: Bitmap) {
        var size = size
        var bitmap = render(text, pixelSize: size)
        if Double(bitmap.width) > maximumWidth {
            size = max(8, size * maximumWidth / Double(bitmap.width))
            bitmap = render(text, pixelSize: size)
        }
        var shown = text
        while Double(bitmap.width) > maximumWidth, shown.count > 1 {
            shown = String(shown.dropLast(shown.hasSuffix("…") ? 2 : 1)) + "…"
            bitmap = render(shown, pixelSize: size)
        }
        return (shown, size, bitmap)
    }
}
