import Foundation
import Kamera
import KameraTestMedia

/// Real-photo inputs for the server tests: a face and a QR code over a photo, as a JPEG, and
/// a short "camera" stream of the face moving with the code leaving half-way.
enum ServerTestMedia {
    static let qrPayload = "https://kamera.example/server-test"

    /// Frame `i` of the stream (640×480): the astronaut's face moving right, the QR code in
    /// frames before `codeLeavesAt`.
    static func frame(_ i: Int, codeLeavesAt: Int = 6) throws -> PixelBuffer {
        var faces = try FaceScene(background: "building.jpg", width: 640, height: 480)
        faces.place(try FaceScene.astronautHead(), faceCenter: PixelPoint(x: 180 + 8 * Double(i), y: 220), faceSide: 140, degrees: 12)
        var scene = SceneComposer(background: faces.image, width: 640, height: 480)
        if i < codeLeavesAt {
            try scene.place(.qr, payload: .text(qrPayload), pose: CodePose(center: PixelPoint(x: 480, y: 300), width: 170, rotation: 8))
        }
        return scene.canvas
    }

    /// The stream as a 15 fps movie for a server camera played from a file: the face goes
    /// right and comes back (so the loop has no jump), the code is there in the first half.
    static func cameraMovie(frames: Int = 30) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("kamera-camera-\(UUID()).mp4")
        let recorder = try MovieRecorder(url: url, settings: RecordingSettings(width: 640, height: 480, frameRate: 15, quality: 18))
        let half = frames / 2
        for i in 0..<frames {
            let position = i < half ? i : frames - 1 - i
            try recorder.append(try frame(position, codeLeavesAt: i < half ? position + 1 : 0), at: Double(i) / 15)
        }
        _ = try recorder.finish()
        return url
    }

    static func jpeg(_ image: PixelBuffer) throws -> Data {
        try ImageEncoder.encode(image, as: .jpeg(quality: 90))
    }

    /// A PNG whose header declares 30000 × 30000 pixels over a few bytes of data.
    static func decompressionBomb() throws -> Data {
        var png = try ImageEncoder.encode(PixelBuffer(width: 8, height: 8, format: .gray8, filledWith: [0]), as: .png)
        // IHDR's width and height are the 4-byte big-endian fields at offsets 16 and 20.
        for offset in [16, 20] {
            png.replaceSubrange(offset..<offset + 4, with: [0x00, 0x00, 0x75, 0x30])
        }
        // The chunk's CRC (over type and data, bytes 12..<29) must match, or the decoder
        // reports a damaged file before it looks at the size.
        let crc = crc32(png[12..<29])
        png.replaceSubrange(29..<33, with: [UInt8(crc >> 24), UInt8(crc >> 16 & 0xFF), UInt8(crc >> 8 & 0xFF), UInt8(crc & 0xFF)])
        return png
    }

    static func crc32(_ bytes: Data) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }
}
