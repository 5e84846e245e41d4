import CWebP
import Foundation
import KameraCore

/// WebP (lossy and lossless) through libwebp.
enum WebPCodec {
    static func decode(_ data: Data, path: String?, options: ImageDecodingOptions) throws -> PixelBuffer {
        try data.withUnsafeBytes { raw -> PixelBuffer in
            let src = raw.bindMemory(to: UInt8.self).baseAddress!
            var features = WebPBitstreamFeatures()
            let status = WebPGetFeatures(src, raw.count, &features)
            guard status == VP8_STATUS_OK else {
                throw KameraError.corruptImage(path: path, format: "WebP", reason: describe(status))
            }
            let width = Int(features.width), height = Int(features.height)
            guard width > 0, height > 0 else { throw KameraError.corruptImage(path: path, format: "WebP", reason: "zero size") }
            try options.admit(width: width, height: height, path: path)
            guard features.has_animation == 0 else {
                throw KameraError.unsupportedFormat(path: path, detected: "animated WebP")
            }
            let format: PixelFormat = features.has_alpha != 0 ? .rgba8 : .rgb8
            var buffer = PixelBuffer(width: width, height: height, format: format)
            let stride = Int32(buffer.bytesPerRow)
            let count = buffer.bytes.count
            let result = buffer.bytes.withUnsafeMutableBufferPointer { dst in
                format == .rgba8
                    ? WebPDecodeRGBAInto(src, raw.count, dst.baseAddress, count, stride)
                    : WebPDecodeRGBInto(src, raw.count, dst.baseAddress, count, stride)
            }
            guard result != nil else {
                throw KameraError.corruptImage(path: path, format: "WebP", reason: "bitstream is truncated or corrupt")
            }
            return buffer
        }
    }

    static func encode(_ buffer: PixelBuffer, quality: Int?, lossless: Bool) throws -> Data {
        let source: PixelBuffer =
            switch buffer.format {
            case .gray8: buffer.converted(to: .rgb8)
            case .bgra8: buffer.converted(to: .rgba8)
            default: buffer
            }
        var output: UnsafeMutablePointer<UInt8>?
        let (w, h, stride) = (Int32(source.width), Int32(source.height), Int32(source.bytesPerRow))
        let q = Float(max(0, min(100, quality ?? 90)))
        let size = source.bytes.withUnsafeBufferPointer { src -> Int in
            switch (source.format, lossless) {
            case (.rgb8, false): WebPEncodeRGB(src.baseAddress, w, h, stride, q, &output)
            case (.rgb8, true): WebPEncodeLosslessRGB(src.baseAddress, w, h, stride, &output)
            case (_, false): WebPEncodeRGBA(src.baseAddress, w, h, stride, q, &output)
            case (_, true): WebPEncodeLosslessRGBA(src.baseAddress, w, h, stride, &output)
            }
        }
        defer { if let output { WebPFree(output) } }
        guard size > 0, let output else {
            throw KameraError.encodingFailed(format: "WebP", reason: "libwebp could not encode \(source.width)×\(source.height)")
        }
        return Data(bytes: output, count: size)
    }

    private static func describe(_ status: VP8StatusCode) -> String {
        switch status {
        case VP8_STATUS_OUT_OF_MEMORY: "out of memory"
        case VP8_STATUS_INVALID_PARAM: "invalid parameter"
        case VP8_STATUS_BITSTREAM_ERROR: "bitstream error"
        case VP8_STATUS_UNSUPPORTED_FEATURE: "unsupported feature"
        case VP8_STATUS_NOT_ENOUGH_DATA: "not enough data (truncated)"
        default: "decoder status \(status.rawValue)"
        }
    }
}
