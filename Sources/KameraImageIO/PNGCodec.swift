import CPNG
import Foundation
import KameraCore

/// PNG through libpng's simplified API (the classic API needs setjmp, which Swift cannot call).
enum PNGCodec {
    // png.h's PNG_FORMAT_FLAG_* values; the composed PNG_FORMAT_* macros do not import.
    private static let alphaFlag: UInt32 = 0x01
    private static let colorFlag: UInt32 = 0x02

    static func decode(_ data: Data, path: String?, options: ImageDecodingOptions) throws -> PixelBuffer {
        var image = png_image()
        image.version = UInt32(PNG_IMAGE_VERSION)
        defer { png_image_free(&image) }
        try data.withUnsafeBytes { raw in
            guard png_image_begin_read_from_memory(&image, raw.baseAddress, raw.count) != 0 else {
                throw KameraError.corruptImage(path: path, format: "PNG", reason: message(&image))
            }
        }
        let width = Int(image.width), height = Int(image.height)
        guard width > 0, height > 0 else { throw KameraError.corruptImage(path: path, format: "PNG", reason: "zero size") }
        try options.admit(width: width, height: height, path: path)
        let hasColor = image.format & colorFlag != 0
        let hasAlpha = image.format & alphaFlag != 0
        let format: PixelFormat = hasAlpha ? .rgba8 : (hasColor ? .rgb8 : .gray8)
        image.format =
            switch format {
            case .rgba8: colorFlag | alphaFlag
            case .rgb8: colorFlag
            default: 0
            }
        var buffer = PixelBuffer(width: width, height: height, format: format)
        let ok = data.withUnsafeBytes { _ in
            buffer.bytes.withUnsafeMutableBytes { dst in
                png_image_finish_read(&image, nil, dst.baseAddress, Int32(buffer.bytesPerRow), nil)
            }
        }
        guard ok != 0 else { throw KameraError.corruptImage(path: path, format: "PNG", reason: message(&image)) }
        return buffer
    }

    static func encode(_ buffer: PixelBuffer) throws -> Data {
        let source = buffer.format == .bgra8 ? buffer.converted(to: .rgba8) : buffer
        var image = png_image()
        image.version = UInt32(PNG_IMAGE_VERSION)
        image.width = UInt32(source.width)
        image.height = UInt32(source.height)
        image.format =
            switch source.format {
            case .gray8: 0
            case .rgb8: colorFlag
            default: colorFlag | alphaFlag
            }
        defer { png_image_free(&image) }
        var size = 0
        let stride = Int32(source.bytesPerRow)
        let sized = source.bytes.withUnsafeBytes { src in
            png_image_write_to_memory(&image, nil, &size, 0, src.baseAddress, stride, nil)
        }
        guard sized != 0, size > 0 else { throw KameraError.encodingFailed(format: "PNG", reason: message(&image)) }
        var out = Data(count: size)
        let written = out.withUnsafeMutableBytes { dst in
            source.bytes.withUnsafeBytes { src in
                png_image_write_to_memory(&image, dst.baseAddress, &size, 0, src.baseAddress, stride, nil)
            }
        }
        guard written != 0 else { throw KameraError.encodingFailed(format: "PNG", reason: message(&image)) }
        return out.prefix(size)
    }

    private static func message(_ image: inout png_image) -> String {
        withUnsafeBytes(of: &image.message) { raw in
            let bytes = raw.prefix { $0 != 0 }
            return bytes.isEmpty ? "unknown error" : String(decoding: bytes, as: UTF8.self)
        }
    }
}
