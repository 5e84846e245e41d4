import Foundation
import Kamera

/// The frames of one server camera, in real time: a V4L2 device (`/dev/videoN`) in its
/// full-quality format, or a video file played at its own rate and looped, which stands in for
/// a camera on a machine without one (the page and the recordings cannot tell the difference).
///
/// Frame times are seconds since the feed opened, on the monotonic clock, so they keep
/// increasing across a file's loops and recordings can start at any frame. Not thread-safe:
/// the camera's capture thread owns it.
final class CameraFeed {
    let path: String
    let width: Int
    let height: Int
    /// The rate recordings are encoded for (the device's or the file's, else 30).
    let frameRate: Double
    private var reader: MovieReader
    /// Whether it is a V4L2 device (not a video file standing in for one).
    let isDevice: Bool
    private let opened = ContinuousClock.now
    /// Where the file's current loop started, on the feed's clock.
    private var loopStart: Double = 0
    private var lastFileTime: Double = 0
    private var index = 0

    /// Opens `path`; throws a typed error for a missing path, a node that is not a capture
    /// device, or a file with no decodable video.
    init(path: String) throws {
        self.path = path
        (reader, isDevice) = try Self.open(path)
        // H.264 with 4:2:0 chroma needs even sizes: an odd frame loses its last row or column.
        width = reader.width & ~1
        height = reader.height & ~1
        frameRate = reader.frameRate.flatMap { $0 > 0 && $0 <= 240 ? $0 : nil } ?? 30
        guard width >= 2, height >= 2 else {
            throw KameraError.unsupportedFormat(path: path, detected: "\(reader.width)×\(reader.height) frames")
        }
    }

    /// Checks that `path` can be a server camera without keeping it open: a character device
    /// that V4L2 says captures video, or a readable video file.
    static func check(_ path: String) throws {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue else {
            throw KameraError.unreadableFile(path: path, reason: "no such camera or video file")
        }
        if isCharacterDevice(path) {
            guard CameraDevice(queryingDeviceAt: path) != nil else {
                throw KameraError.unsupportedFormat(path: path, detected: "a device that is not a V4L2 video capture device")
            }
        } else {
            _ = try MovieReader(path: path)
        }
    }

    /// The next frame, waiting for it as a camera would; nil when a device stops delivering.
    func next() throws -> VideoFrame? {
        if isDevice {
            guard let frame = try reader.nextFrame() else { return nil }
            return stamped(frame.pixelBuffer)
        }
        var frame = try reader.nextFrame()
        if frame == nil {
            // Loop: reopen (seeking back is not reliable in every container) and carry on
            // one frame interval after the last frame.
            loopStart += lastFileTime + 1 / frameRate
            reader = try Self.open(path).reader
            frame = try reader.nextFrame()
            guard frame != nil else { return nil }
        }
        let fileTime = max(frame!.time, 0)
        lastFileTime = fileTime
        // Deliver in real time: wait until the frame's moment on the feed's clock.
        let due = loopStart + fileTime
        let wait = due - (ContinuousClock.now - opened) / .seconds(1)
        if wait > 0 { Thread.sleep(forTimeInterval: min(wait, 1)) }
        return stamped(frame!.pixelBuffer)
    }

    private func stamped(_ image: PixelBuffer) -> VideoFrame {
        defer { index += 1 }
        return VideoFrame(
            pixelBuffer: image.croppedToEven(width: width, height: height), time: (ContinuousClock.now - opened) / .seconds(1),
            index: index)
    }

    private static func open(_ path: String) throws -> (reader: MovieReader, isDevice: Bool) {
        guard isCharacterDevice(path) else { return (try MovieReader(path: path), false) }
        let device = CameraDevice(queryingDeviceAt: path)
        return (try MovieReader(camera: device ?? CameraDevice(path: path), format: device?.fullQualityFormat), true)
    }

    private static func isCharacterDevice(_ path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0 && (status.st_mode & S_IFMT) == S_IFCHR
    }
}
