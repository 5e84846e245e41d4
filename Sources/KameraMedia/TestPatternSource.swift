import KameraCore

/// A synthetic video source: colour bars with a white square sweeping across and a frame
/// counter in binary, so every frame differs and its index can be read back.
public struct TestPatternSource: Sendable {
    public var width: Int
    public var height: Int
    public var frameRate: Double

    public init(width: Int = 1280, height: Int = 720, frameRate: Double = 30) {
        self.width = width
        self.height = height
        self.frameRate = frameRate
    }

    private static let bars: [(UInt8, UInt8, UInt8)] = [
        (192, 192, 192), (192, 192, 0), (0, 192, 192), (0, 192, 0), (192, 0, 192), (192, 0, 0), (0, 0, 192),
    ]

    /// Frame `index` (shown at `index / frameRate` seconds).
    public func frame(_ index: Int) -> VideoFrame {
        var buffer = PixelBuffer(width: width, height: height, format: .rgb8)
        let square = max(8, height / 6)
        let squareX = (index * max(1, width / 90)) % max(1, width - square)
        let squareY = height / 2 - square / 2
        let bitWidth = max(2, width / 40)
        let rowBytes = width * 3
        // One row of bars, copied into every row; only the square and the counter are drawn
        // per frame, so 1080p frames cost little more than a memory copy.
        var bars = [UInt8](repeating: 0, count: rowBytes)
        for x in 0..<width {
            let color = Self.bars[min(6, x * 7 / width)]
            bars[x * 3] = color.0
            bars[x * 3 + 1] = color.1
            bars[x * 3 + 2] = color.2
        }
        buffer.bytes.withUnsafeMutableBufferPointer { p in
            bars.withUnsafeBufferPointer { row in
                for y in 0..<height { (p.baseAddress! + y * rowBytes).update(from: row.baseAddress!, count: rowBytes) }
            }
            for y in squareY..<min(height, squareY + square) {
                (p.baseAddress! + y * rowBytes + squareX * 3).update(repeating: 255, count: min(square, width - squareX) * 3)
            }
            // The frame index as 16 black/white bits along the bottom edge.
            for y in max(0, height - bitWidth)..<height {
                for bit in 0..<16 where (bit + 1) * bitWidth <= width {
                    let value: UInt8 = (index >> (15 - bit)) & 1 == 1 ? 255 : 0
                    (p.baseAddress! + y * rowBytes + bit * bitWidth * 3).update(repeating: value, count: bitWidth * 3)
                }
            }
        }
        return VideoFrame(pixelBuffer: buffer, time: Double(index) / frameRate, index: index)
    }

    /// Reads the frame index back from a (decoded, possibly lossy) frame of this pattern.
    public static func index(in image: PixelBuffer) -> Int {
        let gray = image.converted(to: .gray8)
        let bitWidth = max(2, gray.width / 40)
        let y = gray.height - bitWidth / 2 - 1
        var value = 0
        for bit in 0..<16 {
            let x = bit * bitWidth + bitWidth / 2
            value = value << 1 | (gray.bytes[y * gray.bytesPerRow + x] > 128 ? 1 : 0)
        }
        return value
    }
}
