/// The memory layout of one pixel in a ``PixelBuffer``.
public enum PixelFormat: String, Sendable, CaseIterable, Codable {
    /// 8-bit luminance.
    case gray8
    /// 8-bit red, green, blue.
    case rgb8
    /// 8-bit red, green, blue, alpha (straight alpha).
    case rgba8
    /// 8-bit blue, green, red, alpha (the order most cameras and Core Video use).
    case bgra8

    /// Bytes one pixel occupies.
    public var bytesPerPixel: Int {
        switch self {
        case .gray8: 1
        case .rgb8: 3
        case .rgba8, .bgra8: 4
        }
    }

    /// Byte offsets of red, green and blue inside one pixel (all 0 for gray).
    public var rgbOffsets: (r: Int, g: Int, b: Int) {
        switch self {
        case .gray8: (0, 0, 0)
        case .rgb8, .rgba8: (0, 1, 2)
        case .bgra8: (2, 1, 0)
        }
    }

    /// Byte offset of alpha, if the format has one.
    public var alphaOffset: Int? {
        switch self {
        case .rgba8, .bgra8: 3
        default: nil
        }
    }
}
