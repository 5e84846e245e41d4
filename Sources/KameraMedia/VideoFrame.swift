import KameraCore

/// A decoded video frame with its presentation time.
public struct VideoFrame: Sendable {
    /// The pixels in the reader's output format.
    public var pixelBuffer: PixelBuffer
    /// Presentation time in seconds from the start of the stream.
    public var time: Double
    /// 0-based index of the frame among those this reader has returned since opening or seeking.
    public var index: Int

    public init(pixelBuffer: PixelBuffer, time: Double, index: Int) {
        self.pixelBuffer = pixelBuffer
        self.time = time
        self.index = index
    }
}
