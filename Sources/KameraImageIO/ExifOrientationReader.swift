import Foundation
import KameraCore

/// Finds the EXIF orientation tag in a TIFF-structured EXIF block.
enum ExifOrientationReader {
    /// The orientation in `tiff` (bytes starting at the TIFF header, optionally preceded
    /// by "Exif\0\0"), or nil if absent or malformed.
    static func orientation(inExif block: [UInt8]) -> ImageOrientation? {
        var t = block[...]
        if t.starts(with: Array("Exif".utf8) + [0, 0]) { t = t.dropFirst(6) }
        let b = Array(t)
        guard b.count >= 8 else { return nil }
        let little: Bool
        if b[0] == 0x49 && b[1] == 0x49 { little = true } else if b[0] == 0x4D && b[1] == 0x4D { little = false } else { return nil }
        func u16(_ o: Int) -> Int? {
            guard o >= 0, o + 2 <= b.count else { return nil }
            return little ? Int(b[o]) | Int(b[o + 1]) << 8 : Int(b[o]) << 8 | Int(b[o + 1])
        }
        func u32(_ o: Int) -> Int? {
            guard let lo = u16(little ? o : o + 2), let hi = u16(little ? o + 2 : o) else { return nil }
            return hi << 16 | lo
        }
        guard u16(2) == 42, let ifd = u32(4), let count = u16(ifd) else { return nil }
        for i in 0..<min(count, 512) {
            let entry = ifd + 2 + i * 12
            guard let tag = u16(entry) else { return nil }
            if tag == 0x0112 {
                guard let value = u16(entry + 8) else { return nil }
                return ImageOrientation(rawValue: value)
            }
        }
        return nil
    }

    /// The EXIF block of a JPEG (APP1 "Exif"), scanning markers up to the image data.
    static func exifBlock(inJPEG data: [UInt8]) -> [UInt8]? {
        var i = 2
        while i + 4 <= data.count {
            guard data[i] == 0xFF else { return nil }
            let marker = data[i + 1]
            if marker == 0xD8 || marker == 0x01 || (0xD0...0xD7).contains(marker) { i += 2; continue }
            if marker == 0xFF { i += 1; continue }
            if marker == 0xDA || marker == 0xD9 { return nil }
            let length = Int(data[i + 2]) << 8 | Int(data[i + 3])
            guard length >= 2, i + 2 + length <= data.count else { return nil }
            if marker == 0xE1, length > 8, data[(i + 4)..<(i + 10)].elementsEqual(Array("Exif".utf8) + [0, 0]) {
                return Array(data[(i + 4)..<(i + 2 + length)])
            }
            i += 2 + length
        }
        return nil
    }

    /// The EXIF block of a PNG (`eXIf` chunk). Walks chunk headers in place: only the
    /// chunk itself is copied, not the image data around it.
    static func exifBlock(inPNG data: Data) -> [UInt8]? {
        chunk(named: "eXIf", in: data, from: 8, lengthFirst: true, bigEndian: true, padded: false, stopAt: "IEND")
    }

    /// The EXIF block of a WebP (`EXIF` chunk of an extended file).
    static func exifBlock(inWebP data: Data) -> [UInt8]? {
        chunk(named: "EXIF", in: data, from: 12, lengthFirst: false, bigEndian: false, padded: true, stopAt: nil)
    }

    /// The body of the first chunk called `name` in a PNG-style (length, type, body, CRC) or
    /// RIFF-style (type, length, body, pad byte) chunk sequence starting at `offset`.
    private static func chunk(
        named name: String, in data: Data, from offset: Int, lengthFirst: Bool, bigEndian: Bool,
        padded: Bool, stopAt stop: String?
    ) -> [UInt8]? {
        let base = data.startIndex
        var i = offset
        let trailer = lengthFirst ? 4 : 0  // PNG chunks end with a CRC
        while i + 8 + trailer <= data.count {
            let lengthBytes = data[(base + i + (lengthFirst ? 0 : 4))..<(base + i + (lengthFirst ? 4 : 8))]
            let length = (bigEndian ? lengthBytes : Data(lengthBytes.reversed())).reduce(0) { $0 << 8 | Int($1) }
            let typeStart = base + i + (lengthFirst ? 4 : 0)
            let type = String(decoding: data[typeStart..<(typeStart + 4)], as: UTF8.self)
            let bodyStart = i + 8
            guard length >= 0, bodyStart + length + trailer <= data.count else { return nil }
            if type == name { return [UInt8](data[(base + bodyStart)..<(base + bodyStart + length)]) }
            if type == stop { return nil }
            i = bodyStart + length + trailer + (padded ? length & 1 : 0)
        }
        return nil
    }
}
