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
        // The source offset is linear in the output position: find where output (0, 0)
        // comes from and how it moves per output column and row, once, not per pixel.
        let (row, column) = (bytesPerRow, bpp)
        let (origin, perColumn, perRow): (Int, Int, Int)
        switch orientation {
        case .up: (origin, perColumn, perRow) = (0, column, row)
        case .upMirrored: (origin, perColumn, perRow) = ((w - 1) * column, -column, row)
        case .down: (origin, perColumn, perRow) = ((h - 1) * row + (w - 1) * column, -column, -row)
        case .downMirrored: (origin, perColumn, perRow) = ((h - 1) * row, column, -row)
        case .leftMirrored: (origin, perColumn, perRow) = (0, row, column)
        case .right: (origin, perColumn, perRow) = ((h - 1) * row, -row, column)
        case .rightMirrored: (origin, perColumn, perRow) = ((h - 1) * row + (w - 1) * column, -row, -column)
        case .left: (origin, perColumn, perRow) = ((w - 1) * column, row, -column)
        }
        bytes.withUnsafeBufferPointer { src in
            out.bytes.withUnsafeMutableBufferPointer { dst in
                for oy in 0..<outHeight {
                    var s = origin + oy * perRow
                    var d = oy * out.bytesPerRow
                    for _ in 0..<outWidth {
                        for c in 0..<bpp { dst[d + c] = src[s + c] }
                        s += perColumn
                        d += bpp
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
