import Foundation
import KameraCore

/// Decodes JPEG, PNG and WebP bytes into upright images.
public enum ImageDecoder {
    /// Decodes `data`; `path` only labels errors. Applies the EXIF orientation unless disabled.
    public static func decode(_ data: Data, path: String? = nil, options: ImageDecodingOptions = .init()) throws -> Image {
        guard !data.isEmpty else { throw KameraError.emptyInput(path: path) }
        guard let format = ImageFileFormat.detect(data) else {
            throw KameraError.unsupportedFormat(path: path, detected: ImageFileFormat.describeUnknown(data))
        }
        var pixels: PixelBuffer
        let exif: [UInt8]?
        var damage: String?
        switch format {
        case .jpeg:
            (pixels, damage) = try JPEGCodec.decode(data, path: path, options: options)
            exif = ExifOrientationReader.exifBlock(inJPEG: [UInt8](data.prefix(256 * 1024)))
        case .png:
            pixels = try PNGCodec.decode(data, path: path, options: options)
            exif = ExifOrientationReader.exifBlock(inPNG: data)
        case .webp:
            pixels = try WebPCodec.decode(data, path: path, options: options)
            exif = ExifOrientationReader.exifBlock(inWebP: data)
        }
        if options.decodesLuminanceOnly && pixels.format != .gray8 { pixels = pixels.converted(to: .gray8) }
        let orientation = exif.flatMap(ExifOrientationReader.orientation(inExif:)) ?? .up
        let url = path.map { URL(fileURLWithPath: $0) }
        var image = Image(
            pixelBuffer: options.appliesOrientation ? pixels.applying(orientation) : pixels,
            sourceOrientation: orientation, sourceURL: url)
        image.damage = damage
        return image
    }
}
