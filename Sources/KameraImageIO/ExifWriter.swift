import Foundation
import KameraCore

/// Writes a photo's EXIF block (little-endian TIFF: IFD0 with Orientation, Software and
/// DateTime; an Exif IFD with DateTimeOriginal, its sub-seconds and offset, and the pixel size)
/// into a JPEG as an APP1 segment right after the start-of-image marker.
enum ExifWriter {
    private struct Entry {
        var tag: UInt16
        var type: UInt16  // 2 ASCII, 3 SHORT, 4 LONG
        var count: UInt32
        var payload: [UInt8]
    }

    /// `jpeg` with `metadata` as its EXIF (an existing APP1 Exif segment is replaced).
    /// - Throws: `KameraError.corruptImage` when `jpeg` does not start with a JPEG marker.
    static func inserting(_ metadata: PhotoMetadata, intoJPEG jpeg: Data, width: Int, height: Int) throws -> Data {
        let bytes = [UInt8](jpeg)
        guard bytes.count >= 4, bytes[0] == 0xFF, bytes[1] == 0xD8 else {
            throw KameraError.corruptImage(path: nil, format: "JPEG", reason: "no start-of-image marker to put EXIF after")
        }
        var rest = Array(bytes[2...])
        // A segment of our own making is the only APP1 an encoder here writes; drop any first.
        if rest.count >= 10, rest[0] == 0xFF, rest[1] == 0xE1, Array(rest[4..<10]) == Array("Exif".utf8) + [0, 0] {
            let length = Int(rest[2]) << 8 | Int(rest[3])
            if length + 2 <= rest.count { rest.removeFirst(length + 2) }
        }
        let block = Array("Exif".utf8) + [0, 0] + tiff(metadata, width: width, height: height)
        let length = block.count + 2
        return Data([0xFF, 0xD8, 0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + block + rest)
    }

    static func tiff(_ metadata: PhotoMetadata, width: Int, height: Int) -> [UInt8] {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = metadata.timeZone
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second, .nanosecond], from: metadata.dateTaken)
        let stamp = String(
            format: "%04d:%02d:%02d %02d:%02d:%02d", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0, parts.hour ?? 0,
            parts.minute ?? 0, parts.second ?? 0)
        let milliseconds = String(format: "%03d", min(999, (parts.nanosecond ?? 0) / 1_000_000))
        let offsetMinutes = metadata.timeZone.secondsFromGMT(for: metadata.dateTaken) / 60
        let offset = String(format: "%@%02d:%02d", offsetMinutes < 0 ? "-" : "+", abs(offsetMinutes) / 60, abs(offsetMinutes) % 60)
        func ascii(_ tag: UInt16, _ text: String) -> Entry {
            let payload = Array(text.utf8.prefix(200)) + [0]
            return Entry(tag: tag, type: 2, count: UInt32(payload.count), payload: payload)
        }
        func long(_ tag: UInt16, _ value: Int) -> Entry {
            Entry(tag: tag, type: 4, count: 1, payload: le32(UInt32(clamping: max(0, value))))
        }
        let exifEntries = [
            ascii(0x9003, stamp), ascii(0x9011, offset), ascii(0x9291, milliseconds), long(0xA002, width), long(0xA003, height),
        ]
        var first = [
            Entry(tag: 0x0112, type: 3, count: 1, payload: le16(UInt16(metadata.orientation.rawValue)) + [0, 0]),
            ascii(0x0131, metadata.software), ascii(0x0132, stamp), long(0x8769, 0),
        ]
        let firstSize = size(of: first)
        first[3] = long(0x8769, 8 + firstSize)  // the Exif IFD follows IFD0 and its data
        return Array("II".utf8) + le16(42) + le32(8) + ifd(first, at: 8) + ifd(exifEntries, at: 8 + firstSize)
    }

    private static func size(of entries: [Entry]) -> Int {
        2 + 12 * entries.count + 4 + entries.map { $0.payload.count > 4 ? ($0.payload.count + 1) & ~1 : 0 }.reduce(0, +)
    }

    /// One IFD at `offset` (from the TIFF header): entries, a zero next-IFD link, then the
    /// values longer than four bytes (word-aligned).
    private static func ifd(_ entries: [Entry], at offset: Int) -> [UInt8] {
        var out = le16(UInt16(entries.count))
        var data: [UInt8] = []
        let dataStart = offset + 2 + 12 * entries.count + 4
        for entry in entries.sorted(by: { $0.tag < $1.tag }) {
            out += le16(entry.tag) + le16(entry.type) + le32(entry.count)
            if entry.payload.count <= 4 {
                out += entry.payload + [UInt8](repeating: 0, count: 4 - entry.payload.count)
            } else {
                out += le32(UInt32(dataStart + data.count))
                data += entry.payload
                if data.count % 2 == 1 { data.append(0) }
            }
        }
        return out + le32(0) + data
    }

    private static func le16(_ value: UInt16) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8)] }
    private static func le32(_ value: UInt32) -> [UInt8] { (0..<4).map { UInt8((value >> (8 * $0)) & 0xFF) } }
}
