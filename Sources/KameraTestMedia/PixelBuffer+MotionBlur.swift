import Foundation
import KameraCore

extension PixelBuffer {
    /// The picture a camera takes while it moves `length` pixels in a straight line at `angle`
    /// degrees (clockwise from the x axis) during the exposure: each pixel the mean of the
    /// scene along that line, centred on it. Edges repeat their last pixel.
    public func motionBlurred(length: Double, angle: Double) -> PixelBuffer {
        guard length >= 0.5, width > 0, height > 0 else { return self }
        // One sample per half pixel of travel keeps the streak smooth for any angle.
        let count = max(2, Int((length * 2).rounded(.up)) + 1)
        let (dx, dy) = (cos(angle * .pi / 180), sin(angle * .pi / 180))
        let steps = (0..<count).map { i in (Double(i) / Double(count - 1) - 0.5) * length }
        var out = self
        let bpp = format.bytesPerPixel, alpha = format.alphaOffset
        bytes.withUnsafeBufferPointer { source in
            let sampler = BilinearSampler(source, of: self)
            out.bytes.withUnsafeMutableBufferPointer { target in
                for y in 0..<height {
                    for x in 0..<width {
                        let base = y * bytesPerRow + x * bpp
                        for c in 0..<bpp where c != alpha {
                            var sum = 0.0
                            for t in steps { sum += sampler.sample(x: Double(x) + t * dx, y: Double(y) + t * dy, channel: c) }
                            target[base + c] = UInt8(max(0, min(255, (sum / Double(count)).rounded())))
                        }
                    }
                }
            }
        }
        return out
    }
}
