import Foundation
import KameraCore

/// Prepares photos for Tesseract, which expects dark, level text on a light page: detects
/// light-on-dark text and skew, and rescales small text.
enum TextPreprocessor {
    /// Otsu's threshold of a gray8 image.
    static func otsuThreshold(_ gray: PixelBuffer) -> Int {
        var histogram = [Int](repeating: 0, count: 256)
        for y in 0..<gray.height {
            let row = y * gray.bytesPerRow
            for x in 0..<gray.width { histogram[Int(gray.bytes[row + x])] += 1 }
        }
        let total = Double(gray.width * gray.height)
        let sum = histogram.enumerated().reduce(0.0) { $0 + Double($1.offset * $1.element) }
        var sumBelow = 0.0, countBelow = 0.0, best = 0.0, threshold = 128
        for t in 0..<256 {
            countBelow += Double(histogram[t])
            guard countBelow > 0, countBelow < total else { continue }
            sumBelow += Double(t * histogram[t])
            let meanBelow = sumBelow / countBelow, meanAbove = (sum - sumBelow) / (total - countBelow)
            let between = countBelow * (total - countBelow) * (meanBelow - meanAbove) * (meanBelow - meanAbove)
            if between > best { best = between; threshold = t }
        }
        return threshold
    }

    /// True when most of the image is darker than Otsu's threshold: light text on a dark ground.
    static func isLightOnDark(_ gray: PixelBuffer) -> Bool {
        let small = gray.fitting(maximumDimension: 400)
        let threshold = otsuThreshold(small)
        let dark = small.bytes.reduce(0) { $0 + (Int($1) <= threshold ? 1 : 0) }
        return dark * 2 > small.width * small.height
    }

    /// The text's skew in degrees (clockwise, −45…45) from projection profiles: rows of text
    /// give the sharpest row histogram of dark pixels when projected at their own angle.
    static func skewAngle(_ gray: PixelBuffer) -> Double {
        let small = gray.fitting(maximumDimension: 600)
        let threshold = otsuThreshold(small)
        var points: [(Double, Double)] = []
        for y in 0..<small.height {
            for x in 0..<small.width where Int(small.bytes[y * small.bytesPerRow + x]) <= threshold {
                points.append((Double(x), Double(y)))
            }
        }
        guard points.count > 50 else { return 0 }
        if points.count > 40_000 {
            let step = points.count / 40_000 + 1
            points = stride(from: 0, to: points.count, by: step).map { points[$0] }
        }
        let diagonal = Double(small.width + small.height)
        func score(_ degrees: Double) -> Double {
            let a = degrees * .pi / 180, s = sin(a), c = cos(a)
            var bins = [Double](repeating: 0, count: Int(2 * diagonal) + 2)
            for (x, y) in points { bins[Int(-x * s + y * c + diagonal)] += 1 }
            return bins.reduce(0) { $0 + $1 * $1 }
        }
        var best = 0.0, bestScore = score(0)
        for degrees in stride(from: -45.0, through: 45, by: 1) where degrees != 0 {
            let value = score(degrees)
            if value > bestScore { best = degrees; bestScore = value }
        }
        for degrees in stride(from: best - 0.9, through: best + 0.9, by: 0.1) {
            let value = score(degrees)
            if value > bestScore { best = degrees; bestScore = value }
        }
        return best
    }

    /// The image divided by its local mean (a `window`-pixel box, via an integral image):
    /// slow changes of the background (a photo behind printed text, uneven light) become
    /// white while strokes darker than their surroundings stay dark.
    static func flattenedBackground(_ gray: PixelBuffer, window: Int) -> PixelBuffer {
        let w = gray.width, h = gray.height
        var integral = [Int](repeating: 0, count: (w + 1) * (h + 1))
        for y in 0..<h {
            var rowSum = 0
            for x in 0..<w {
                rowSum += Int(gray.bytes[y * gray.bytesPerRow + x])
                integral[(y + 1) * (w + 1) + x + 1] = integral[y * (w + 1) + x + 1] + rowSum
            }
        }
        let r = max(1, window / 2)
        var out = PixelBuffer(width: w, height: h, format: .gray8)
        for y in 0..<h {
            let y0 = max(0, y - r), y1 = min(h, y + r + 1)
            for x in 0..<w {
                let x0 = max(0, x - r), x1 = min(w, x + r + 1)
                let sum =
                    integral[y1 * (w + 1) + x1] - integral[y0 * (w + 1) + x1] - integral[y1 * (w + 1) + x0] + integral[y0 * (w + 1) + x0]
                let mean = Double(sum) / Double((x1 - x0) * (y1 - y0))
                let value = Double(gray.bytes[y * gray.bytesPerRow + x]) / max(1, mean) * 255
                // Stretch: the background (ratio ≈ 1) goes white, strokes keep their contrast.
                out.bytes[y * w + x] = UInt8(max(0, min(255, 255 - (255 - value) * 2)))
            }
        }
        return out
    }
}
