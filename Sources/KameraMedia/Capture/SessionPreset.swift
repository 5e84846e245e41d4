import KameraCore

/// The capture quality a session asks for, as AVCaptureSession.Preset names it; resolved
/// against the sizes a camera offers by `CameraDevice.format(for:)`.
public enum SessionPreset: String, Sendable, Hashable, Codable, CaseIterable {
    /// The largest size the camera offers (compressed when offered so at that size).
    case high
    /// About 640×480: the size nearest that many pixels.
    case medium
    /// The smallest size of at least 320×240 (the smallest there is otherwise).
    case low
    case vga640x480 = "640x480"
    case hd1280x720 = "1280x720"
    case hd1920x1080 = "1920x1080"
}

extension CameraDevice {
    /// The capture format `preset` picks among the camera's formats: an exact size for the
    /// sized presets, MJPG over uncompressed at the same size (USB 2 carries uncompressed
    /// large frames at only a few per second).
    /// - Throws: `KameraError.unsupportedCameraControl` when the camera offers no such size
    ///   (or its formats are unknown).
    public func format(for preset: SessionPreset) throws -> Format {
        let known = formats.filter { $0.width > 0 && $0.height > 0 }
        func preferred(_ a: Format, _ b: Format) -> Bool {
            (a.fourCC == "MJPG" ? 1 : 0) < (b.fourCC == "MJPG" ? 1 : 0)
        }
        let chosen: Format?
        switch preset {
        case .high: chosen = fullQualityFormat.flatMap { $0.width > 0 ? $0 : nil }
        case .medium:
            chosen = known.min { a, b in
                let da = abs(a.width * a.height - 640 * 480), db = abs(b.width * b.height - 640 * 480)
                return da != db ? da < db : preferred(b, a)
            }
        case .low:
            let large = known.filter { $0.width >= 320 && $0.height >= 240 }
            chosen = (large.isEmpty ? known : large).min { a, b in
                a.width * a.height != b.width * b.height ? a.width * a.height < b.width * b.height : preferred(b, a)
            }
        case .vga640x480, .hd1280x720, .hd1920x1080:
            let parts = preset.rawValue.split(separator: "x").compactMap { Int($0) }
            chosen = known.filter { $0.width == parts[0] && $0.height == parts[1] }.max(by: preferred)
        }
        guard let chosen else { throw KameraError.unsupportedCameraControl(device: path, control: "the \(preset.rawValue) preset") }
        return chosen
    }
}
