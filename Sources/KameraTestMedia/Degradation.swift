import KameraCore

/// Camera-like damage applied to a synthetic scene: motion and focus blur, sensor noise, low
/// contrast.
public struct Degradation: Sendable, Hashable, Codable {
    /// Gaussian blur standard deviation in pixels (0: sharp).
    public var blurSigma: Double
    /// Additive Gaussian noise standard deviation in grey levels (0: clean).
    public var noiseSigma: Double
    /// Contrast kept around mid-grey, 0…1 (1: unchanged).
    public var contrast: Double
    /// How far the camera moved during the exposure, in pixels (0: still).
    public var motionLength: Double
    /// The direction it moved in, degrees clockwise from the x axis.
    public var motionAngle: Double

    public init(blurSigma: Double = 0, noiseSigma: Double = 0, contrast: Double = 1, motionLength: Double = 0, motionAngle: Double = 0) {
        self.blurSigma = blurSigma
        self.noiseSigma = noiseSigma
        self.contrast = contrast
        self.motionLength = motionLength
        self.motionAngle = motionAngle
    }

    public static let none = Degradation()

    /// `buffer` with the damage applied; `random` drives the noise.
    public func apply(to buffer: PixelBuffer, random: inout SeededRandom) -> PixelBuffer {
        var out = buffer.motionBlurred(length: motionLength, angle: motionAngle).gaussianBlurred(sigma: blurSigma)
        guard noiseSigma > 0 || contrast != 1 else { return out }
        let alpha = out.format.alphaOffset
        let bpp = out.format.bytesPerPixel
        for y in 0..<out.height {
            for x in 0..<out.width {
                let base = y * out.bytesPerRow + x * bpp
                for c in 0..<bpp where c != alpha {
                    var v = (Double(out.bytes[base + c]) - 128) * contrast + 128
                    if noiseSigma > 0 { v += random.gaussian() * noiseSigma }
                    out.bytes[base + c] = UInt8(max(0, min(255, v.rounded())))
                }
            }
        }
        return out
    }
}
