import KameraCore
import KameraVision

/// Draws a person mask: the people tinted, in proportion to the mask's probability, so the
/// mask's edge shows where it is unsure.
public struct PersonMaskOverlay: Sendable {
    public var color = Color(red: 0, green: 200, blue: 255, alpha: 110)

    public init() {}

    /// Tints `canvas` under `mask` (stretched over the canvas when its size differs).
    public func draw(_ mask: PersonSegmentationObservation, on canvas: inout Canvas) {
        let (width, height) = (canvas.buffer.width, canvas.buffer.height)
        guard mask.width > 0, mask.height > 0, width > 0, height > 0 else { return }
        let tint = [Float(color.red), Float(color.green), Float(color.blue)], opacity = Float(color.alpha) / 255
        let bytesPerRow = canvas.buffer.bytesPerRow
        let columns = (0..<width).map { min(mask.width - 1, $0 * mask.width / width) }
        canvas.buffer.bytes.withUnsafeMutableBufferPointer { pixels in
            for y in 0..<height {
                let maskRow = min(mask.height - 1, y * mask.height / height) * mask.width
                for x in 0..<width {
                    let weight = mask.values[maskRow + columns[x]] * opacity
                    guard weight > 0.004 else { continue }
                    for channel in 0..<3 {
                        let at = y * bytesPerRow + 3 * x + channel
                        pixels[at] = UInt8((Float(pixels[at]) * (1 - weight) + tint[channel] * weight).rounded())
                    }
                }
            }
        }
    }
}
