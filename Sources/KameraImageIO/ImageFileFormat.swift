import Foundation

/// The still-image container formats Kamera reads and writes.
public enum ImageFileFormat: String, Sendable, CaseIterable {
    case jpeg, png, webp

    /// The format the bytes start with, or nil if none matches.
    public static func detect(_ data: Data) -> ImageFileFormat? {
        let head = [UInt8](data.prefix(12))
        if head.count >= 3, head[0] == 0xFF, head[1] == 0xD8, head[2] == 0xFF { return .jpeg }
        if head.count >= 8, head[0..<8].elementsEqual([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
        if head.count >= 12, head[0..<4].elementsEqual(Array("RIFF".utf8)), head[8..<12].elementsEqual(Array("WEBP".utf8)) {
            return .webp
        }
        return nil
    }

    /// The format a file name's extension names, or nil.
    public init?(pathExtension: String) {
        switch pathExtension.lowercased() {
        case "jpg", "jpeg", "jpe", "jfif": self = .jpeg
        case "png": self = .png
        case "webp": self = .webp
        default: return nil
        }
    }

    /// A readable description of bytes that are none of the supported formats.
    static func describeUnknown(_ data: Data) -> String {
        let head = [UInt8](data.prefix(16))
        if head.starts(with: [0x47, 0x49, 0x46]) { return "GIF" }
        if head.starts(with: [0x42, 0x4D]) { return "BMP" }
        if head.starts(with: [0x49, 0x49, 0x2A, 0x00]) || head.starts(with: [0x4D, 0x4D, 0x00, 0x2A]) { return "TIFF" }
        if head.count >= 12, head[4..<8].elementsEqual(Array("ftyp".utf8)) { return "ISO media (HEIF/AVIF/MP4)" }
        let printable = head.allSatisfy { $0 == 9 || $0 == 10 || $0 == 13 || (32..<127).contains($0) }
        if printable && !head.isEmpty {
            let start = String(decoding: head.prefix(12), as: UTF8.self).replacingOccurrences(of: "\n", with: " ").trimmingCharacters(
                in: .whitespaces)
            return "text, starting \"\(start)\""
        }
        return "unknown signature " + head.prefix(8).map { String(format: "%02X", $0) }.joined(separator: " ")
    }
}
