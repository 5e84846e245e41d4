import KameraCore

/// A person mask, like the pixel buffer Vision's `GeneratePersonSegmentationRequest` returns:
/// one value a pixel, 0 (background) … 1 (a person), at the model's or the image's size.
public struct PersonSegmentationObservation: Sendable {
    /// The mask's width and height.
    public let width: Int
    public let height: Int
    /// The probabilities, row by row (Vision's `OneComponent32Float`).
    public let values: [Float]
    /// The size of the image (or region) the mask covers; a smaller mask is stretched over it.
    public let imageSize: Size

    init(mask: FloatMask, imageSize: Size) {
        (width, height, values, self.imageSize) = (mask.width, mask.height, mask.values, imageSize)
    }

    /// The mask as an 8-bit gray image, 0 … 255 (Vision's `OneComponent8`).
    public var pixelBuffer: PixelBuffer {
        var buffer = PixelBuffer(width: width, height: height, format: .gray8)
        buffer.bytes.withUnsafeMutableBufferPointer { bytes in
            for y in 0..<height {
                for x in 0..<width {
                    // A corrupt model's NaN reads as background, never a trap in the conversion.
                    let value = values[y * width + x]
                    bytes[y * buffer.bytesPerRow + x] = value.isNaN ? 0 : UInt8((min(max(value, 0), 1) * 255).rounded())
                }
            }
        }
        return buffer
    }

    /// The share of the mask that shows a person (values of at least one half).
    public var coverage: Double {
        values.isEmpty ? 0 : Double(values.lazy.filter { $0 >= 0.5 }.count) / Double(values.count)
    }

    /// The bounds of the person pixels (values of at least one half) in the mask's pixels,
    /// or nil when there are none.
    public var personBounds: PixelRect? {
        var (minX, minY, maxX, maxY) = (width, height, -1, -1)
        for y in 0..<height {
            for x in 0..<width where values[y * width + x] >= 0.5 {
                (minX, minY, maxX, maxY) = (min(minX, x), min(minY, y), max(maxX, x), max(maxY, y))
            }
        }
        guard maxX >= 0 else { return nil }
        return PixelRect(x: Double(minX), y: Double(minY), width: Double(maxX - minX + 1), height: Double(maxY - minY + 1))
    }
}
