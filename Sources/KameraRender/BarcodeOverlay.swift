import KameraCore
import KameraVision

/// Draws barcode results the way the seeds' overlays do: the bounds as a yellow oval, the
/// corner polygon in green with a half-transparent fill, and the decoded message as a label.
public struct BarcodeOverlay: Sendable {
    public var boundsColor = Color.yellow
    public var outlineColor = Color.green
    public var fillOpacity = 0.5
    /// Line width in pixels; nil scales it with the image.
    public var lineWidth: Double?
    /// Longest label shown before it is shortened with an ellipsis.
    public var maximumLabelLength = 48

    public init() {}

    /// Draws `observations` onto `canvas`. Labels need `font`; without one they are skipped.
    public func draw(_ observations: [BarcodeObservation], on canvas: inout Canvas, font: FontFace?) {
        var layout = LabelLayout(canvasSize: canvas.buffer.size)
        draw(observations, on: &canvas, font: font, layout: &layout)
    }

    /// Draws with labels placed clear of those already in `layout` (a combined overlay's).
    public func draw(_ observations: [BarcodeObservation], on canvas: inout Canvas, font: FontFace?, layout: inout LabelLayout) {
        let buffer = canvas.buffer
        let width = lineWidth ?? max(2, Double(max(buffer.width, buffer.height)) / 400)
        for observation in observations {
            // Scale corners if the observation was made on a differently sized image.
            let sx = Double(buffer.width) / observation.imageSize.width
            let sy = Double(buffer.height) / observation.imageSize.height
            let corners = observation.pixelCorners.corners.map { PixelPoint(x: $0.x * sx, y: $0.y * sy) }
            var bounds = PixelRect(enclosing: corners)
            // Linear codes read on one scan line have a flat quad; give the marks some height.
            if bounds.height < width * 4 {
                bounds = PixelRect(x: bounds.x, y: bounds.center.y - width * 4, width: bounds.width, height: width * 8)
            }
            if bounds.width < width * 4 {
                bounds = PixelRect(x: bounds.center.x - width * 4, y: bounds.y, width: width * 8, height: bounds.height)
            }
            let polygon =
                PixelRect(enclosing: corners).height < width * 4 || PixelRect(enclosing: corners).width < width * 4
                ? Quad(bounds).corners : corners
            canvas.fill(polygon: polygon, color: outlineColor.withOpacity(fillOpacity))
            canvas.stroke(polygon, closed: true, lineWidth: width, color: outlineColor)
            // The oval circumscribes the bounds (√2 larger), so it does not cut the corners.
            let grow = 0.5 * (2.0.squareRoot() - 1)
            let oval = PixelRect(
                x: bounds.x - bounds.width * grow, y: bounds.y - bounds.height * grow,
                width: bounds.width * (1 + 2 * grow), height: bounds.height * (1 + 2 * grow))
            canvas.stroke(ellipseIn: oval, lineWidth: width, color: boundsColor)
            if let font { drawLabel(for: observation, below: oval, lineWidth: width, on: &canvas, font: font, layout: &layout) }
        }
    }

    private func drawLabel(
        for observation: BarcodeObservation, below oval: PixelRect, lineWidth: Double,
        on canvas: inout Canvas, font: FontFace, layout: inout LabelLayout
    ) {
        let preferredSize = max(12, min(48, Double(canvas.buffer.height) / 30))
        let padding = preferredSize / 4
        let fitted = font.fitting(
            Self.labelText(observation, limit: maximumLabelLength), size: preferredSize,
            maximumWidth: Double(canvas.buffer.width) - 2 * padding)
        let boxWidth = Double(fitted.bitmap.width) + 2 * padding, boxHeight = Double(fitted.bitmap.height) + 2 * padding
        // Below the oval, else above it; the layout keeps it on the canvas and off other labels.
        let x = oval.center.x - boxWidth / 2
        let box = layout.place(
            width: boxWidth, height: boxHeight,
            preferred: [
                PixelPoint(x: x, y: oval.maxY + lineWidth), PixelPoint(x: x, y: oval.minY - boxHeight - lineWidth),
            ].filter { $0.y >= 0 && $0.y + boxHeight <= Double(canvas.buffer.height) } + [PixelPoint(x: x, y: oval.maxY + lineWidth)])
        canvas.fill(rect: box, color: Color.black.withOpacity(0.65))
        canvas.draw(text: fitted.text, at: PixelPoint(x: box.x + padding, y: box.y + padding), size: fitted.size, color: .white, font: font)
    }

    /// The label for an observation: its text with control characters shown as spaces,
    /// shortened to `limit`; binary payloads as a byte count.
    static func labelText(_ observation: BarcodeObservation, limit: Int) -> String {
        guard let payload = observation.payloadString else {
            return "\(observation.symbology.rawValue): \(observation.payloadData.count) bytes"
        }
        let addOn = observation.supplementalPayloadString.map { " +" + $0 } ?? ""
        let cleaned = String((payload + addOn).unicodeScalars.map { $0.properties.generalCategory == .control ? " " : Character($0) })
        let body = cleaned.count > limit ? cleaned.prefix(limit - 1) + "…" : Substring(cleaned)
        return "\(observation.symbology.rawValue): \(body)"
    }
}
