/// The eight EXIF orientations (TIFF tag 0x0112): how the stored pixels must be turned
/// to display upright. Raw values are the EXIF values.
public enum ImageOrientation: Int, Sendable, CaseIterable, Codable {
    /// Stored upright.
    case up = 1
    /// Mirrored left to right.
    case upMirrored = 2
    /// Rotated 180°.
    case down = 3
    /// Mirrored top to bottom.
    case downMirrored = 4
    /// Mirrored along the top-left to bottom-right diagonal (transposed).
    case leftMirrored = 5
    /// Stored rotated 90° counter-clockwise: display by turning 90° clockwise.
    case right = 6
    /// Mirrored along the top-right to bottom-left diagonal (transversed).
    case rightMirrored = 7
    /// Stored rotated 90° clockwise: display by turning 90° counter-clockwise.
    case left = 8

    /// Whether displaying swaps width and height.
    public var swapsDimensions: Bool { rawValue >= 5 }
}

extension PixelBuffer {
    /// The pixels turned upright according to an EXIF `orientation`.
    public func applying(_ orientation: ImageOrientation) -> PixelBuffer {
        if orientation == .up { return self }
        let outWidth = orientation.swapsDimensions ? height : width
        let outHeight = orientation.swapsDimensions ? width : height
        var out = PixelBuffer(width: outWidth, height: outHeight, format: format)
        let bpp = format.bytesPerPixel
        let w = width, h = height
        bytes.withUnsafeBufferPointer { src in
            out.bytes.withUnsafeMutableBufferPointer { dst in
                for oy in 0..<outHeight {
                    for ox in 0..<outWidth {
                        // Source pixel displayed at (ox, oy).
                        let (sx, sy): (Int, Int)
                        switch orientation {
                        case .up: (sx, sy) = (ox, oy)
                        case .upMirrored: (sx, sy) = (w - 1 - ox, oy)
                        case .down: (sx, sy) = (w - 1 - ox, h - 1 - oy)
                        case .downMirrored: (sx, sy) = (ox, h - 1 - oy)
                        case .leftMirrored: (sx, sy) = (oy, ox)
                        case .right: (sx, sy) = (oy, h - 1 - ox)
                        case .rightMirrored: (sx, sy) = (w - 1 - oy, h - 1 - ox)
                        case .left: (sx, sy) = (w - 1 - oy, ox)
                        }
                        let s = sy * bytesPerRow + sx * bpp
                        let d = oy * out.bytesPerRow + ox * bpp
                        for c in 0..<bpp { dst[d + c] = src[s + c] }
                    }
                }
            }
        }
        return out
    }

    /// The pixels rotated clockwise by a multiple of 90 degrees.
    public func rotated(byQuarterTurns turns: Int) -> PixelBuffer {
        switch ((turns % 4) + 4) % 4 {
        case 1: applying(.right)
        case 2: applying(.down)
        case 3: applying(.left)
        default: self
        }
    }

    /// The pixels mirrored left to right.
    public func mirrored() -> PixelBuffer { applying(.upMirrored) }
}
