import Foundation
import KameraCore
import KameraMedia

/// A movie standing in for a camera that sees an event: the photo alone, then the
/// astronaut's face in view. Every frame carries its number in its bottom rows as
/// `TestPatternSource` writes it, so which frames a clip holds can be read back from the clip.
public enum EventMovie {
    /// Writes the movie (640×480, 15 fps) to a new temporary file.
    /// - Parameters:
    ///   - before: frames of the photo alone.
    ///   - with: frames with the face, after them.
    public static func write(before: Int, with: Int) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("kamera-events-\(UUID()).mp4")
        let recorder = try MovieRecorder(url: url, settings: RecordingSettings(width: 640, height: 480, frameRate: 15, quality: 18))
        let empty = try FaceScene(background: "building.jpg", width: 640, height: 480).image
        var faces = try FaceScene(background: "building.jpg", width: 640, height: 480)
        faces.place(try FaceScene.astronautHead(), faceCenter: PixelPoint(x: 300, y: 220), faceSide: 150, degrees: 0)
        let pattern = TestPatternSource(width: 640, height: 480, frameRate: 15)
        for i in 0..<(before + with) {
            var frame = i < before ? empty : faces.image
            // The pattern's frame counter: its bottom 16 rows, 16 bits of 16 pixels.
            let counter = pattern.frame(i).pixelBuffer
            let rowBytes = frame.bytesPerRow
            for y in (480 - 16)..<480 {
                let row = y * rowBytes..<(y * rowBytes + 256 * 3)
                frame.bytes.replaceSubrange(row, with: counter.bytes[row])
            }
            try recorder.append(frame, at: Double(i) / 15)
        }
        _ = try recorder.finish()
        return url
    }

    /// The frame numbers of a clip cut from this movie, decoded, in order; and the number of
    /// the clip's frame shown `offset` seconds in (times are the clip's, so a camera's real
    /// delivery times, not its frame numbers, decide).
    public static func frameNumbers(in clip: URL, at offset: Double) throws -> (numbers: [Int], atOffset: Int?) {
        let reader = try MovieReader(path: clip.path)
        var numbers: [Int] = [], times: [Double] = []
        while let frame = try reader.nextFrame() {
            numbers.append(TestPatternSource.index(in: frame.pixelBuffer))
            times.append(frame.time)
        }
        return (numbers, zip(numbers, times).min { abs($0.1 - offset) < abs($1.1 - offset) }?.0)
    }
}
