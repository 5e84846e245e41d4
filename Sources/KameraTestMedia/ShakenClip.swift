import Foundation
import KameraCore
import KameraMedia

/// Hand shake put on real footage with a known path, for stabilization tests: a window 5/6
/// of a fixed-camera video's size (`vtest.avi`) is moved along a slow pan plus correlated
/// random shift and roll (seeded), and each window, sampled bilinearly, is a frame.
public struct ShakenClip: Sendable {
    /// Where one frame's window sits in the source: centre (source pixels) and roll (radians).
    public struct Pose: Sendable, Hashable {
        public var centre: PixelPoint
        public var roll: Double
    }

    public var frames: [PixelBuffer]
    public var poses: [Pose]
    public var frameRate: Double

    /// `frameCount` frames of `video` (a file in ``SampleMedia``) shaken by up to about
    /// `shake` pixels (1σ) and `rollDegrees` (1σ) of roll.
    public static func make(video: String = "vtest.avi", seed: UInt64, frameCount: Int, shake: Double = 8, rollDegrees: Double = 0.4)
        throws -> ShakenClip
    {
        var random = SeededRandom(seed: seed)
        let reader = try MovieReader(path: try SampleMedia.url(video).path)
        let rate = reader.frameRate ?? 25
        let width = (reader.width * 5 / 6) & ~1, height = (reader.height * 5 / 6) & ~1
        let keep = exp(-1 / (0.1 * rate))
        var (sx, sy, sr) = (0.0, 0.0, 0.0)
        var clip = ShakenClip(frames: [], poses: [], frameRate: rate)
        let margin = (Double(reader.width - width) / 2, Double(reader.height - height) / 2)
        for index in 0..<frameCount {
            guard let decoded = try reader.nextFrame() else { break }
            let t = Double(index) / rate
            // AR(1) shake whose memory is ~0.1 s at any rate, scaled to the asked-for spread.
            let spread = (1 - keep * keep).squareRoot()
            sx = keep * sx + spread * random.gaussian()
            sy = keep * sy + spread * random.gaussian()
            sr = keep * sr + spread * random.gaussian()
            let x = min(max(0.2 * margin.0 * sin(2 * Double.pi * t / 9) + shake * sx, -0.8 * margin.0), 0.8 * margin.0)
            let y = min(max(shake * sy, -0.8 * margin.1), 0.8 * margin.1)
            let pose = Pose(
                centre: PixelPoint(x: Double(reader.width) / 2 + x, y: Double(reader.height) / 2 + y),
                roll: min(max(rollDegrees * sr, -1.5), 1.5) * Double.pi / 180)
            clip.frames.append(window(of: decoded.pixelBuffer.converted(to: .rgb8), at: pose, width: width, height: height))
            clip.poses.append(pose)
        }
        return clip
    }

    /// The `width`×`height` window of `source` at `pose`.
    static func window(of source: PixelBuffer, at pose: Pose, width: Int, height: Int) -> PixelBuffer {
        var out = PixelBuffer(width: width, height: height, format: .rgb8)
        let c = cos(pose.roll), s = sin(pose.roll)
        source.bytes.withUnsafeBufferPointer { pixels in
            let sampler = BilinearSampler(pixels, of: source)
            for y in 0..<height {
                for x in 0..<width {
                    // Window pixel (from its centre) turned by the roll, placed at the centre.
                    let u = Double(x) - Double(width) / 2, v = Double(y) - Double(height) / 2
                    let sourceX = pose.centre.x + c * u - s * v, sourceY = pose.centre.y + s * u + c * v
                    for channel in 0..<3 {
                        out.bytes[y * out.bytesPerRow + x * 3 + channel] = UInt8(
                            sampler.sample(x: sourceX, y: sourceY, channel: channel).rounded())
                    }
                }
            }
        }
        return out
    }
}
