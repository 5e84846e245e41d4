/// Bilinear interpolation over a pixel buffer's bytes, shared by resizing, rotation and
/// warping. Coordinates are in pixel-index space (pixel centres at integers) and are
/// clamped to the image.
public struct BilinearSampler {
    let pixels: UnsafeBufferPointer<UInt8>
    let width: Int
    let height: Int
    let bytesPerRow: Int
    let bytesPerPixel: Int

    public init(_ pixels: UnsafeBufferPointer<UInt8>, of buffer: PixelBuffer) {
        self.pixels = pixels
        width = buffer.width
        height = buffer.height
        bytesPerRow = buffer.bytesPerRow
        bytesPerPixel = buffer.format.bytesPerPixel
    }

    /// The interpolated value of `channel` at (x, y).
    @inline(__always)
    public func sample(x: Double, y: Double, channel: Int) -> Double {
        let cx = min(max(x, 0), Double(width - 1)), cy = min(max(y, 0), Double(height - 1))
        let x0 = Int(cx), y0 = Int(cy)
        let x1 = min(x0 + 1, width - 1), y1 = min(y0 + 1, height - 1)
        let fx = cx - Double(x0), fy = cy - Double(y0)
        let row0 = y0 * bytesPerRow, row1 = y1 * bytesPerRow
        let p00 = Double(pixels[row0 + x0 * bytesPerPixel + channel]), p01 = Double(pixels[row0 + x1 * bytesPerPixel + channel])
        let p10 = Double(pixels[row1 + x0 * bytesPerPixel + channel]), p11 = Double(pixels[row1 + x1 * bytesPerPixel + channel])
        let top = p00 + (p01 - p00) * fx, bottom = p10 + (p11 - p10) * fx
        return top + (bottom - top) * fy
    }
}
