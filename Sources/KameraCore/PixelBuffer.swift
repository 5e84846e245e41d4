/// An owned, row-strided 8-bit image in memory. A value type: copies share storage
/// until one of them is written to.
public struct PixelBuffer: Sendable, Equatable {
    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int
    /// Layout of each pixel.
    public let format: PixelFormat
    /// Bytes from the start of one row to the start of the next (≥ width × bytesPerPixel).
    public let bytesPerRow: Int
    /// The pixel bytes, `bytesPerRow × height` long.
    public var bytes: [UInt8]

    /// A buffer filled with zeros (black, transparent).
    public init(width: Int, height: Int, format: PixelFormat, bytesPerRow: Int? = nil) {
        precondition(width > 0 && height > 0, "PixelBuffer needs a positive size")
        let stride = bytesPerRow ?? width * format.bytesPerPixel
        precondition(stride >= width * format.bytesPerPixel, "bytesPerRow too small")
        self.width = width
        self.height = height
        self.format = format
        self.bytesPerRow = stride
        self.bytes = [UInt8](repeating: 0, count: stride * height)
    }

    /// Wraps existing bytes; throws if they are too few for the size and stride.
    public init(width: Int, height: Int, format: PixelFormat, bytesPerRow: Int? = nil, bytes: [UInt8]) throws {
        guard width > 0, height > 0 else {
            throw KameraError.invalidArgument("pixel buffer size \(width)×\(height) must be positive")
        }
        let stride = bytesPerRow ?? width * format.bytesPerPixel
        guard stride >= width * format.bytesPerPixel else {
            throw KameraError.invalidArgument("bytesPerRow \(stride) is less than width × \(format.bytesPerPixel)")
        }
        guard bytes.count >= stride * (height - 1) + width * format.bytesPerPixel else {
            throw KameraError.invalidArgument("\(bytes.count) bytes are too few for \(width)×\(height) \(format)")
        }
        self.width = width
        self.height = height
        self.format = format
        self.bytesPerRow = stride
        self.bytes = bytes
    }

    /// A buffer of one colour; `value` gives each channel in the format's order.
    public init(width: Int, height: Int, format: PixelFormat, filledWith value: [UInt8]) {
        precondition(value.count == format.bytesPerPixel, "fill value must have one byte per channel")
        self.init(width: width, height: height, format: format)
        bytes.withUnsafeMutableBufferPointer { out in
            if value.allSatisfy({ $0 == value[0] }) {
                out.update(repeating: value[0])
                return
            }
            for i in stride(from: 0, to: out.count, by: value.count) {
                for c in 0..<value.count { out[i + c] = value[c] }
            }
        }
    }

    /// The image's size in pixels.
    public var size: Size { Size(width: Double(width), height: Double(height)) }
    /// The whole buffer as a rectangle in its own pixels.
    public var bounds: PixelRect { PixelRect(x: 0, y: 0, width: Double(width), height: Double(height)) }

    /// Byte index of channel `channel` of pixel (x, y).
    @inlinable
    public func index(x: Int, y: Int, channel: Int = 0) -> Int {
        y * bytesPerRow + x * format.bytesPerPixel + channel
    }

    /// The channels of pixel (x, y) in the format's order.
    public func pixel(x: Int, y: Int) -> [UInt8] {
        let base = index(x: x, y: y)
        return Array(bytes[base..<base + format.bytesPerPixel])
    }

    /// Sets the channels of pixel (x, y) in the format's order.
    public mutating func setPixel(x: Int, y: Int, _ value: [UInt8]) {
        let base = index(x: x, y: y)
        for c in 0..<format.bytesPerPixel { bytes[base + c] = value[c] }
    }

    /// The same pixels with rows packed tightly (`bytesPerRow == width × bytesPerPixel`).
    public func packed() -> PixelBuffer {
        let rowBytes = width * format.bytesPerPixel
        if bytesPerRow == rowBytes && bytes.count == rowBytes * height { return self }
        var out = PixelBuffer(width: width, height: height, format: format)
        bytes.withUnsafeBufferPointer { src in
            out.bytes.withUnsafeMutableBufferPointer { dst in
                for y in 0..<height {
                    let from = src.baseAddress! + y * bytesPerRow
                    (dst.baseAddress! + y * rowBytes).update(from: from, count: rowBytes)
                }
            }
        }
        return out
    }

    /// A copy of the rectangle `rect` (clamped to the image).
    public func cropped(to rect: PixelRect) -> PixelBuffer {
        let x0 = max(0, min(width - 1, Int(rect.minX.rounded(.down))))
        let y0 = max(0, min(height - 1, Int(rect.minY.rounded(.down))))
        let x1 = max(x0 + 1, min(width, Int(rect.maxX.rounded(.up))))
        let y1 = max(y0 + 1, min(height, Int(rect.maxY.rounded(.up))))
        var out = PixelBuffer(width: x1 - x0, height: y1 - y0, format: format)
        let bpp = format.bytesPerPixel
        for y in y0..<y1 {
            let src = index(x: x0, y: y)
            let dst = (y - y0) * out.bytesPerRow
            out.bytes[dst..<dst + (x1 - x0) * bpp] = bytes[src..<src + (x1 - x0) * bpp]
        }
        return out
    }
}
