import Foundation
import KameraCore

/// Finds the angles at which bar-like structure (linear and stacked codes) runs, from a
/// magnitude-weighted histogram of gradient directions. zxing-cpp reads linear codes and
/// PDF417 only within a few degrees of horizontal or vertical, so the thorough effort turns
/// the image to each dominant angle before reading again.
enum StripeOrientationEstimator {
    /// Up to `count` dominant gradient directions in degrees (0 ..< 180, clockwise from the
    /// x axis), strongest first, each at least `separation` degrees from the others.
    static func dominantAngles(in gray: PixelBuffer, count: Int = 3, separation: Double = 20) -> [Double] {
        let small = gray.fitting(maximumDimension: 640)
        let binCount = 90  // 2° bins over 180°
        var histogram = [Double](repeating: 0, count: binCount)
        let w = small.width, h = small.height, stride = small.bytesPerRow
        guard w > 2, h > 2 else { return [] }
        small.bytes.withUnsafeBufferPointer { p in
            for y in 1..<(h - 1) {
                for x in 1..<(w - 1) {
                    let i = y * stride + x
                    // Sobel gradient.
                    let gx = Double(Int(p[i - stride + 1]) + 2 * Int(p[i + 1]) + Int(p[i + stride + 1])
                                    - Int(p[i - stride - 1]) - 2 * Int(p[i - 1]) - Int(p[i + stride - 1]))
                    let gy = Double(Int(p[i + stride - 1]) + 2 * Int(p[i + stride]) + Int(p[i + stride + 1])
                                    - Int(p[i - stride - 1]) - 2 * Int(p[i - stride]) - Int(p[i - stride + 1]))
                    let magnitude = gx * gx + gy * gy
                    guard magnitude > 10_000 else { continue }  // ignore texture and noise
                    var angle = atan2(gy, gx) * 180 / .pi
                    if angle < 0 { angle += 180 }
                    if angle >= 180 { angle -= 180 }
                    histogram[min(binCount - 1, Int(angle / 2))] += magnitude.squareRoot()
                }
            }
        }
        // Smooth circularly so a peak split across two bins still wins.
        let smoothed = (0..<binCount).map { i in
            histogram[(i + binCount - 1) % binCount] * 0.25 + histogram[i] * 0.5 + histogram[(i + 1) % binCount] * 0.25
        }
        var peaks: [Double] = []
        for index in smoothed.indices.sorted(by: { smoothed[$0] > smoothed[$1] }) where smoothed[index] > 0 {
            let angle = Double(index) * 2 + 1
            let isSeparate = peaks.allSatisfy { existing in
                let d = abs(existing - angle)
                return min(d, 180 - d) >= separation
            }
            if isSeparate { peaks.append(angle) }
            if peaks.count == count { break }
        }
        return peaks
    }
}
