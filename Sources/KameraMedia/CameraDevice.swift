import Foundation
import KameraCore

/// A V4L2 camera (`/dev/videoN`), like an AVCaptureDevice.
public struct CameraDevice: Sendable, Hashable {
    /// The device node.
    public var path: String
    /// The driver's name for the device, from sysfs.
    public var name: String

    public init(path: String, name: String? = nil) {
        self.path = path
        self.name = name ?? URL(fileURLWithPath: path).lastPathComponent
    }

    /// The cameras present: an empty list, not an error, on machines without any.
    public static func discover(in directory: String = "/dev") -> [CameraDevice] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        return entries.filter { $0.hasPrefix("video") && Int($0.dropFirst(5)) != nil }
            .sorted { Int($0.dropFirst(5))! < Int($1.dropFirst(5))! }
            .map { node in
                let sysName = try? String(contentsOfFile: "/sys/class/video4linux/\(node)/name", encoding: .utf8)
                return CameraDevice(path: "\(directory)/\(node)", name: sysName?.trimmingCharacters(in: .whitespacesAndNewlines) ?? node)
            }
    }
}
