import Foundation
import KameraCore

/// Encodes pixel buffers to PNG, JPEG or WebP.
public enum ImageEncoder {
    /// The encoded bytes of `buffer`.
    public static func encode(_ buffer: PixelBuffer, as encoding: ImageEncoding) throws -> Data {
        switch encoding {
        case .png: try PNGCodec.encode(buffer)
        case .jpeg(let quality): try JPEGCodec.encode(buffer, quality: quality)
        case .webp(let quality): try WebPCodec.encode(buffer, quality: quality, lossless: false)
        case .webpLossless: try WebPCodec.encode(buffer, quality: nil, lossless: true)
        }
    }

    /// `buffer` as a JPEG carrying `metadata` as EXIF (orientation, time taken), as a camera
    /// writes a photo: the pixels are stored as captured and the orientation says how to show them.
    public static func encodePhoto(_ buffer: PixelBuffer, quality: Int = 92, metadata: PhotoMetadata) throws -> Data {
        try ExifWriter.inserting(
            metadata, intoJPEG: try JPEGCodec.encode(buffer, quality: quality), width: buffer.width, height: buffer.height)
    }

    /// Writes `buffer` to `url` atomically (a partial file never replaces a good one), in
    /// the encoding given or the one the extension implies.
    public static func write(_ buffer: PixelBuffer, to url: URL, as encoding: ImageEncoding? = nil) throws {
        guard let chosen = encoding ?? ImageEncoding(pathExtension: url.pathExtension) else {
            throw KameraError.invalidArgument("cannot tell the image format of \(url.path): use .png, .jpg or .webp")
        }
        let data = try encode(buffer, as: chosen)
        do {
            try data.write(to: url, options: .atomic)
        } catch {
            throw KameraError.writeFailed(path: url.path, reason: (error as NSError).localizedDescription)
        }
    }
}
