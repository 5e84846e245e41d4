import Foundation
import KameraCore

extension Image {
    /// Files larger than this are refused before being read into memory.
    public static let maximumFileSize = 512 * 1024 * 1024

    /// Reads and decodes an image file (JPEG, PNG, WebP), turned upright by its EXIF orientation.
    public init(contentsOf url: URL, options: ImageDecodingOptions = .init()) throws {
        let path = url.path
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw KameraError.unreadableFile(path: path, reason: "no such file")
        }
        guard !isDirectory.boolValue else { throw KameraError.unreadableFile(path: path, reason: "is a directory") }
        if let size = (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int, size > Self.maximumFileSize {
            throw KameraError.unreadableFile(path: path, reason: "file is \(size) bytes, over the \(Self.maximumFileSize)-byte limit")
        }
        let data: Data
        do {
            data = try Data(contentsOf: url, options: .mappedIfSafe)
        } catch {
            throw KameraError.unreadableFile(path: path, reason: (error as NSError).localizedDescription)
        }
        self = try ImageDecoder.decode(data, path: path, options: options)
    }

    /// Decodes an image held in memory.
    public init(data: Data, options: ImageDecodingOptions = .init()) throws {
        self = try ImageDecoder.decode(data, options: options)
    }

    /// Writes the pixels to `url` in the format its extension names.
    public func write(to url: URL, as encoding: ImageEncoding? = nil) throws {
        try ImageEncoder.write(pixelBuffer, to: url, as: encoding)
    }
}
