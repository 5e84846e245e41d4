import Foundation
import KameraCore

/// Two views of one real photo under a known motion, with the lighting, blur and noise of a
/// second shot: ground truth for image registration.
public struct RegistrationPair: Sendable {
    /// The reference view (gray8).
    public var reference: PixelBuffer
    /// The second view (gray8).
    public var moving: PixelBuffer
    /// Maps `moving`'s pixels onto `reference`'s (continuous coordinates, top-left origin).
    public var truth: PerspectiveTransform

    /// Pair `seed` from `photo` (a file in ``SampleMedia``).
    /// - Parameters:
    ///   - homographic: turn (up to ±`maximumRotation` degrees), scale and tilt as well as shift.
    ///   - overlapLoss: how much of the view the shift pushes out of the reference (0.3: 30 %).
    public static func make(
        photo: String, seed: UInt64, width: Int = 800, height: Int = 600, homographic: Bool,
        maximumRotation: Double = 30, overlapLoss: Double = 0.3
    ) throws -> RegistrationPair {
        var random = SeededRandom(seed: seed)
        func uniform(_ range: ClosedRange<Double>) -> Double { Double.random(in: range, using: &random) }
        let source = try SampleMedia.photo(photo).pixelBuffer.converted(to: .gray8)
        let reference = SceneComposer(background: source, width: width, height: height).canvas.converted(to: .gray8)
        let (w, h) = (Double(width), Double(height))
        // Shift so that about `overlapLoss` of the area leaves the frame, in a random direction.
        let direction = uniform(0...(2 * Double.pi))
        let shiftShare = overlapLoss * uniform(0.7...1.0)
        let shift = PixelPoint(x: cos(direction) * shiftShare * w * 0.7, y: sin(direction) * shiftShare * h * 0.7)
        var corners = [PixelPoint(x: 0, y: 0), PixelPoint(x: w, y: 0), PixelPoint(x: w, y: h), PixelPoint(x: 0, y: h)]
        let centre = PixelPoint(x: w / 2, y: h / 2)
        let angle = homographic ? uniform(-maximumRotation...maximumRotation) * Double.pi / 180 : 0
        let scale = homographic ? uniform(0.9...1.1) : 1
        corners = corners.map { p in
            let d = p - centre
            var q = PixelPoint(
                x: centre.x + scale * (d.x * cos(angle) - d.y * sin(angle)),
                y: centre.y + scale * (d.x * sin(angle) + d.y * cos(angle)))
            if homographic { q = q + PixelPoint(x: uniform(-0.04...0.04) * w, y: uniform(-0.04...0.04) * h) }
            return q + shift
        }
        // `corners` are where the moving view's corners fall in the reference.
        let viewCorners = [PixelPoint(x: 0, y: 0), PixelPoint(x: w, y: 0), PixelPoint(x: w, y: h), PixelPoint(x: 0, y: h)]
        guard let truth = PerspectiveTransform(from: viewCorners, to: corners) else {
            throw KameraError.invalidArgument("degenerate registration pose")
        }
        // The second shot: other light (gain and offset), its own blur and noise; what lies
        // outside the reference is mid-grey texture-free wall.
        let gain = uniform(0.7...1.3), offset = uniform(-25...25)
        var moving = PixelBuffer(width: width, height: height, format: .gray8)
        reference.bytes.withUnsafeBufferPointer { pixels in
            let sampler = BilinearSampler(pixels, of: reference)
            for y in 0..<height {
                for x in 0..<width {
                    let p = truth.apply(PixelPoint(x: Double(x) + 0.5, y: Double(y) + 0.5))
                    var v = 128.0
                    if p.x >= 0, p.y >= 0, p.x < w, p.y < h { v = sampler.sample(x: p.x - 0.5, y: p.y - 0.5, channel: 0) }
                    moving.bytes[y * moving.bytesPerRow + x] = UInt8(max(0, min(255, (v * gain + offset).rounded())))
                }
            }
        }
        let damage = Degradation(blurSigma: uniform(0.5...1.5), noiseSigma: uniform(2...5))
        return RegistrationPair(reference: reference, moving: damage.apply(to: moving, random: &random), truth: truth)
    }

    /// The largest distance between where `estimate` and the truth put the moving view's
    /// corners in the reference, in pixels.
    public func cornerError(of estimate: PerspectiveTransform) -> Double {
        let (w, h) = (Double(moving.width), Double(moving.height))
        return [PixelPoint(x: 0, y: 0), PixelPoint(x: w, y: 0), PixelPoint(x: w, y: h), PixelPoint(x: 0, y: h)]
            .map { estimate.apply($0).distance(to: truth.apply($0)) }.max() ?? .infinity
    }
}
