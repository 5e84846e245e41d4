import KameraCore

extension PixelBuffer {
    /// This frame cut to `width`×`height` from its top-left corner: H.264 with 4:2:0 chroma
    /// needs even sizes, so an odd frame loses its last row or column before recording.
    public func croppedToEven(width: Int, height: Int) -> PixelBuffer {
        self.width == width && self.height == height
            ? self : cropped(to: PixelRect(x: 0, y: 0, width: Double(width), height: Double(height)))
    }

    /// This frame with an even width and height (see ``croppedToEven(width:height:)``).
    public var croppedToEven: PixelBuffer { croppedToEven(width: width & ~1, height: height & ~1) }
}
