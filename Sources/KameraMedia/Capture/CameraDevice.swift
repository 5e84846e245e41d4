import CFFmpeg
import Foundation
import KameraCore

/// A V4L2 camera (`/dev/videoN`), like an AVCaptureDevice.
public struct CameraDevice: Sendable, Hashable {
    /// The device node.
    public var path: String
    /// The driver's name for the device, from sysfs.
    public var name: String

    /// A capture format the device offers: its FourCC ("YUYV", "MJPG") and one frame size (a
    /// device lists one entry per size; a stepwise range appears as its largest).
    public struct Format: Sendable, Hashable, Codable {
        public var fourCC: String
        public var width: Int
        public var height: Int

        public init(fourCC: String, width: Int, height: Int) {
            self.fourCC = fourCC
            self.width = width
            self.height = height
        }
    }

    /// Capture formats, queried from the driver when discovered (empty if the node is not a
    /// capture device or could not be opened).
    public var formats: [Format]

    public init(path: String, name: String? = nil, formats: [Format] = []) {
        self.path = path
        self.name = name ?? URL(fileURLWithPath: path).lastPathComponent
        self.formats = formats
    }

    /// The V4L2 capture device at `path` with its name and formats, asked of the driver; nil
    /// when `path` is not one (a file, a metadata node, nothing at all).
    public init?(queryingDeviceAt path: String) {
        guard let queried = Self.query(path), !queried.formats.isEmpty else { return nil }
        self.init(path: path, name: queried.name, formats: queried.formats)
    }

    /// Asks the driver for the device's name and capture formats (VIDIOC_QUERYCAP,
    /// VIDIOC_ENUM_FMT, VIDIOC_ENUM_FRAMESIZES); nil when it is not a capture device.
    static func query(_ path: String) -> (name: String, formats: [Format])? {
        var entries = [kamera_camera_format](repeating: kamera_camera_format(), count: 256)
        var card = [CChar](repeating: 0, count: 64)
        let count = kamera_v4l2_formats(path, &entries, Int32(entries.count), &card, Int32(card.count))
        guard count >= 0 else { return nil }
        let formats = entries.prefix(Int(count)).map { entry in
            let code = entry.fourcc
            let fourCC = String(
                decoding: [UInt8(code & 0xFF), UInt8(code >> 8 & 0xFF), UInt8(code >> 16 & 0xFF), UInt8(code >> 24)],
                as: UTF8.self
            ).trimmingCharacters(in: .whitespaces)
            return Format(fourCC: fourCC, width: Int(entry.width), height: Int(entry.height))
        }
        return (String(decoding: card.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self), formats)
    }

    /// The cameras present with their formats: an empty list, not an error, on machines
    /// without any. (Metadata nodes that many webcams add appear with no formats.)
    public static func discover(in directory: String = "/dev") -> [CameraDevice] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        return entries.filter { $0.hasPrefix("video") && Int($0.dropFirst(5)) != nil }
            .sorted { Int($0.dropFirst(5))! < Int($1.dropFirst(5))! }
            .map { node in
                let path = "\(directory)/\(node)"
                let sysName = try? String(contentsOfFile: "/sys/class/video4linux/\(node)/name", encoding: .utf8)
                let queried = query(path)
                return CameraDevice(
                    path: path, name: queried?.name ?? sysName?.trimmingCharacters(in: .whitespacesAndNewlines) ?? node,
                    formats: queried?.formats ?? [])
            }
    }
}

extension CameraDevice {
    /// The format to record at full quality: the largest frame size the camera offers, as
    /// MJPG when it offers that size compressed, because uncompressed YUYV at large sizes
    /// usually arrives at only a few frames per second over USB 2. nil when the formats are
    /// unknown (the driver's current format is then used).
    public var fullQualityFormat: Format? {
        formats.max { a, b in
            (a.width * a.height, a.fourCC == "MJPG" ? 1 : 0) < (b.width * b.height, b.fourCC == "MJPG" ? 1 : 0)
        }
    }

    /// FFmpeg's video4linux2 options that select `format`.
    static func deviceOptions(for format: Format) -> [String: String] {
        var options = ["video_size": "\(format.width)x\(format.height)"]
        switch format.fourCC {
        case "MJPG": options["input_format"] = "mjpeg"
        case "YUYV": options["input_format"] = "yuyv422"
        case "H264": options["input_format"] = "h264"
        default: break
        }
        return options
    }
}
