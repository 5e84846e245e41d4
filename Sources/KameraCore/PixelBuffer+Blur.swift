import Foundation

extension PixelBuffer {
    /// The image blurred with a Gaussian of standard deviation `sigma` pixels (separable,
    /// edges clamped). `sigma` ≤ 0 returns the image unchanged.
    public func gaussianBlurred(sigma: Double) -> PixelBuffer {
        guard sigma > 0 else { return self }
        let radius = max(1, Int((sigma * 3).rounded(.up)))
        var kernel = (-radius...radius).map { exp(-Double($0 * $0) / (2 * sigma * sigma)) }
        let total = kernel.reduce(0, +)
        kernel = kernel.map { $0 / total }
        let bpp = format.bytesPerPixel
        var temp = [Double](repeating: 0, count: width * height * bpp)
        for y in 0..<height {
            for x in 0..<width {
                for c in 0..<bpp {
                    var sum = 0.0
                    for k in -radius...radius {
                        let sx = min(width - 1, max(0, x + k))
                        sum += kernel[k + radius] * Double(bytes[y * bytesPerRow + sx * bpp + c])
                    }
                    temp[(y * width + x) * bpp + c] = sum
                }
            }
        }
        var out = PixelBuffer(width: width, height: height, format: format)
        for y in 0..<height {
            for x in 0..<width {
                for c in 0..<bpp {
                    var sum = 0.0
                    for k in -radius...radius {
                        let sy = min(height - 1, max(0, y + k))
                        sum += kernel[k + radius] * temp[(sy * width + x) * bpp + c]
                    }
                    out.bytes[y * out.bytesPerRow + x * bpp + c] = UInt8(max(0, min(255, sum.rounded())))
                }
            }
        }
        return out
    }
}
