import Foundation
import KameraCore

/// A fresh temporary directory for one test.
func makeTemporaryDirectory() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("kamera-test-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}

/// Peak signal-to-noise ratio between two same-sized buffers, in dB.
func psnr(_ a: PixelBuffer, _ b: PixelBuffer) -> Double {
    let x = a.packed().bytes, y = b.packed().bytes
    precondition(x.count == y.count)
    let mse = zip(x, y).reduce(0.0) { $0 + pow(Double($1.0) - Double($1.1), 2) } / Double(x.count)
    return mse == 0 ? .infinity : 10 * log10(255 * 255 / mse)
}

/// CRC-32 (IEEE) as PNG chunks use it.
func crc32(_ bytes: [UInt8]) -> UInt32 {
    var crc: UInt32 = 0xFFFF_FFFF
    for byte in bytes {
        crc ^= UInt32(byte)
        for _ in 0..<8 { crc = crc & 1 != 0 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
    }
    return ~crc
}

func bigEndian32(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }

/// A PNG chunk with length and CRC.
func pngChunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
    let body = Array(type.utf8) + data
    return bigEndian32(UInt32(data.count)) + body + bigEndian32(crc32(body))
}

/// A little-endian TIFF block holding only the orientation tag.
func exifTIFF(orientation: Int) -> [UInt8] {
    [
        0x49, 0x49, 42, 0, 8, 0, 0, 0,  // header, IFD0 at offset 8
        1, 0,  // one entry
        0x12, 0x01, 3, 0, 1, 0, 0, 0, UInt8(orientation), 0, 0, 0,  // 0x0112 SHORT ×1
        0, 0, 0, 0,
    ]  // no next IFD
}

/// `jpeg` with an APP1 Exif segment carrying `orientation` inserted after SOI.
func jpegWithOrientation(_ jpeg: Data, orientation: Int) -> Data {
    let payload = Array("Exif".utf8) + [0, 0] + exifTIFF(orientation: orientation)
    let length = payload.count + 2
    let segment: [UInt8] = [0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + payload
    var bytes = [UInt8](jpeg)
    bytes.insert(contentsOf: segment, at: 2)
    return Data(bytes)
}

/// `png` with an eXIf chunk carrying `orientation` inserted after IHDR.
func pngWithOrientation(_ png: Data, orientation: Int) -> Data {
    var bytes = [UInt8](png)
    let ihdrEnd = 8 + 12 + 13
    bytes.insert(contentsOf: pngChunk("eXIf", exifTIFF(orientation: orientation)), at: ihdrEnd)
    return Data(bytes)
}

/// An asymmetric test pattern: gradients plus a bright block near the top-left.
func asymmetricPattern(width: Int, height: Int, format: PixelFormat = .rgb8) -> PixelBuffer {
    var buffer = PixelBuffer(width: width, height: height, format: format)
    let bpp = format.bytesPerPixel
    for y in 0..<height {
        for x in 0..<width {
            let marker = x < width / 4 && y < height / 4
            for c in 0..<bpp {
                let value = marker ? 250 : (c == 0 ? x * 200 / width : (c == 1 ? y * 200 / height : 60))
                buffer.bytes[y * buffer.bytesPerRow + x * bpp + c] = UInt8(c == 3 ? 255 : value)
            }
        }
    }
    return buffer
}
