import CTurboJPEG
import Foundation
import KameraCore

/// JPEG through libjpeg-turbo's TurboJPEG API.
enum JPEGCodec {
    /// The pixels, and a description of the damage when a damaged file was decoded anyway.
    static func decode(_ data: Data, path: String?, options: ImageDecodingOptions) throws -> (PixelBuffer, damage: String?) {
        guard let handle = tjInitDecompress() else {
            throw KameraError.corruptImage(path: path, format: "JPEG", reason: "cannot initialise the decoder")
        }
        defer { tjDestroy(handle) }
        return try data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) -> (PixelBuffer, damage: String?) in
            let src = raw.bindMemory(to: UInt8.self).baseAddress!
            var width: Int32 = 0, height: Int32 = 0, subsampling: Int32 = 0, colorspace: Int32 = 0
            guard tjDecompressHeader3(handle, src, UInt(raw.count), &width, &height, &subsampling, &colorspace) == 0 else {
                throw KameraError.corruptImage(path: path, format: "JPEG", reason: message(handle))
            }
            guard width > 0, height > 0 else {
                throw KameraError.corruptImage(path: path, format: "JPEG", reason: "zero size")
            }
            try options.admit(width: Int(width), height: Int(height), path: path)
            let isGray = colorspace == Int32(TJCS_GRAY.rawValue)
            let isCMYK = colorspace == Int32(TJCS_CMYK.rawValue) || colorspace == Int32(TJCS_YCCK.rawValue)
            // CMYK has no luminance plane to take: it is converted like any colour image.
            let toGray = isGray || (options.decodesLuminanceOnly && !isCMYK)
            let decodeFormat: PixelFormat = toGray ? .gray8 : (isCMYK ? .rgba8 : .rgb8)
            let tjFormat = toGray ? TJPF_GRAY : (isCMYK ? TJPF_CMYK : TJPF_RGB)
            var buffer = PixelBuffer(width: Int(width), height: Int(height), format: decodeFormat)
            // libjpeg reports corrupt or missing entropy data as a warning and fills in what it
            // cannot decode; STOPONWARNING makes any such damage an error (the strict mode).
            let flags = options.acceptsDamagedData ? TJFLAG_ACCURATEDCT : TJFLAG_STOPONWARNING | TJFLAG_ACCURATEDCT
            let status = buffer.bytes.withUnsafeMutableBufferPointer { dst in
                tjDecompress2(
                    handle, src, UInt(raw.count), dst.baseAddress, width, Int32(buffer.bytesPerRow), height,
                    Int32(tjFormat.rawValue), flags)
            }
            var damage: String?
            if status != 0 {
                let reason = message(handle)
                guard options.acceptsDamagedData, tjGetErrorCode(handle) == Int32(TJERR_WARNING.rawValue) else {
                    throw KameraError.corruptImage(path: path, format: "JPEG", reason: reason)
                }
                // What libjpeg could not decode it fills with the last block's colour: flat rows
                // at the bottom. Mostly present images are worth analysing (browsers and FFmpeg
                // show them); a file cut off near its start is not.
                let missing = missingRowFraction(buffer)
                guard missing <= 0.5 else {
                    throw KameraError.corruptImage(
                        path: path, format: "JPEG",
                        reason: "\(reason); only \(Int(((1 - missing) * 100).rounded())) % of the rows are present")
                }
                damage = missing > 0 ? "\(reason) (\(Int((missing * 100).rounded(.up))) % of the rows missing)" : reason
            }
            return (isCMYK ? convertInvertedCMYK(buffer) : buffer, damage)
        }
    }

    /// The fraction of rows at the bottom that are one flat colour, the same as the last pixel:
    /// how libjpeg fills the part of a truncated scan it never received.
    private static func missingRowFraction(_ buffer: PixelBuffer) -> Double {
        let rowBytes = buffer.width * buffer.format.bytesPerPixel
        let channels = buffer.format.bytesPerPixel
        return buffer.bytes.withUnsafeBufferPointer { bytes in
            let lastRow = (buffer.height - 1) * buffer.bytesPerRow
            let fill = Array(bytes[(lastRow + rowBytes - channels)..<(lastRow + rowBytes)])
            var flatRows = 0
            rows: for y in stride(from: buffer.height - 1, through: 0, by: -1) {
                let start = y * buffer.bytesPerRow
                for x in stride(from: 0, to: rowBytes, by: channels) {
                    for c in 0..<channels where bytes[start + x + c] != fill[c] { break rows }
                }
                flatRows += 1
            }
            return Double(flatRows) / Double(buffer.height)
        }
    }

    /// Adobe writes CMYK JPEGs inverted; multiply out to RGB.
    private static func convertInvertedCMYK(_ cmyk: PixelBuffer) -> PixelBuffer {
        var rgb = PixelBuffer(width: cmyk.width, height: cmyk.height, format: .rgb8)
        for i in 0..<(cmyk.width * cmyk.height) {
            let c = UInt32(cmyk.bytes[i * 4]), m = UInt32(cmyk.bytes[i * 4 + 1])
            let y = UInt32(cmyk.bytes[i * 4 + 2]), k = UInt32(cmyk.bytes[i * 4 + 3])
            rgb.bytes[i * 3] = UInt8(c * k / 255)
            rgb.bytes[i * 3 + 1] = UInt8(m * k / 255)
            rgb.bytes[i * 3 + 2] = UInt8(y * k / 255)
        }
        return rgb
    }

    static func encode(_ buffer: PixelBuffer, quality: Int) throws -> Data {
        guard let handle = tjInitCompress() else {
            throw KameraError.encodingFailed(format: "JPEG", reason: "cannot initialise the encoder")
        }
        defer { tjDestroy(handle) }
        let source = buffer.format == .rgba8 || buffer.format == .bgra8 ? buffer.converted(to: .rgb8) : buffer
        let format: TJPF =
            switch source.format {
            case .gray8: TJPF_GRAY
            default: TJPF_RGB
            }
        let subsampling = source.format == .gray8 ? TJSAMP_GRAY : TJSAMP_420
        var output: UnsafeMutablePointer<UInt8>?
        var size: UInt = 0
        let status = source.bytes.withUnsafeBufferPointer { src in
            tjCompress2(
                handle, src.baseAddress, Int32(source.width), Int32(source.bytesPerRow), Int32(source.height),
                Int32(format.rawValue), &output, &size, Int32(subsampling.rawValue), Int32(max(1, min(100, quality))),
                TJFLAG_ACCURATEDCT)
        }
        defer { if let output { tjFree(output) } }
        guard status == 0, let output else {
            throw KameraError.encodingFailed(format: "JPEG", reason: message(handle))
        }
        return Data(bytes: output, count: Int(size))
    }

    private static func message(_ handle: tjhandle) -> String {
        guard let text = tjGetErrorStr2(handle) else { return "unknown error" }
        return String(cString: text)
    }
}
