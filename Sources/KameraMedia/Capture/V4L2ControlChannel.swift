import CFFmpeg
import Foundation
import KameraCore

/// An open V4L2 device node for its controls: the thin layer under `CaptureDevice` that lists
/// controls and writes values. It has run only against no hardware here (no /dev/video* on the
/// build machine); everything above it is tested on recorded control lists.
final class V4L2ControlChannel {
    let path: String
    private let descriptor: Int32

    /// - Throws: `KameraError.cameraConfigurationFailed` when the node cannot be opened.
    init(path: String) throws {
        self.path = path
        let fd = kamera_v4l2_open(path)
        guard fd >= 0 else {
            throw KameraError.cameraConfigurationFailed(device: path, reason: "cannot open it (\(String(cString: strerror(-fd))))")
        }
        descriptor = fd
    }

    deinit { kamera_v4l2_close(descriptor) }

    /// Every control the driver lists, with its menu's items.
    func controls() throws -> [CameraControl] {
        var raw = [kamera_v4l2_control](repeating: kamera_v4l2_control(), count: 256)
        let count = kamera_v4l2_controls(descriptor, &raw, Int32(raw.count))
        guard count >= 0 else {
            throw KameraError.cameraConfigurationFailed(
                device: path, reason: "not a V4L2 camera, or its controls cannot be listed (\(String(cString: strerror(-count))))")
        }
        return raw.prefix(Int(count)).map { entry in
            let name = withUnsafeBytes(of: entry.name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            let kind = CameraControl.Kind(v4l2Type: entry.type)
            var menu: [CameraControl.MenuItem] = []
            if kind == .menu || kind == .integerMenu, entry.minimum >= 0, entry.maximum < 256 {
                for index in entry.minimum...entry.maximum {
                    var text = [CChar](repeating: 0, count: 64)
                    var value: Int64 = 0
                    guard kamera_v4l2_menu_item(descriptor, entry.id, UInt32(index), &text, Int32(text.count), &value) == 0 else {
                        continue
                    }
                    let label = String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
                    menu.append(.init(index: index, name: kind == .integerMenu ? String(value) : label))
                }
            }
            return CameraControl(
                queried: entry.id, type: entry.type, name: name, minimum: entry.minimum, maximum: entry.maximum, step: entry.step,
                defaultValue: entry.default_value, value: entry.value, flags: entry.flags, menu: menu)
        }
    }

    /// Takes record priority: other applications can no longer change the controls.
    func claim() throws {
        let status = kamera_v4l2_claim(descriptor)
        guard status == 0 else {
            throw KameraError.cameraConfigurationFailed(
                device: path, reason: status == -EBUSY ? "another application holds its configuration" : String(cString: strerror(-status)))
        }
    }

    func set(_ id: CameraControlID, to value: Int64) throws {
        let status = kamera_v4l2_set_control(descriptor, id.rawValue, value)
        guard status == 0 else {
            throw KameraError.cameraConfigurationFailed(
                device: path, reason: "the driver refused \(id) = \(value) (\(String(cString: strerror(-status))))")
        }
    }
}
