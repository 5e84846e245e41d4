import Foundation
import KameraCore
import KameraNN

/// PP-OCRv4's text detector (DB, "Real-time Scene Text Detection with Differentiable
/// Binarization") on KameraNN: the photo resized so its shorter side is at least 736 pixels
/// (both sides multiples of 32), a probability of text for every pixel, and each region of
/// likely text turned into a rotated box — RapidOCR's post-processing with its settings
/// (threshold 0.3, a box's mean probability at least 0.5, boxes grown by 1.6 × area /
/// perimeter). Finds lines on signs, labels and screens at any angle, which a page-layout
/// engine misses.
struct SceneTextDetector: Sendable {
    /// A line of text found: its corners in the image's pixels (following its slant) and how
    /// sure the detector is (the mean probability inside it).
    struct Line: Sendable {
        var corners: Quad
        var score: Float
    }

    static let shorterSide = 736, maximumSide = 2048
    static let threshold: Float = 0.3, boxThreshold: Float = 0.5, unclipRatio = 1.6
    static let mean: [Float] = [0.485, 0.456, 0.406], deviation: [Float] = [0.229, 0.224, 0.225]

    let models: ModelStore
    /// Whether an image whose shorter side is under `shorterSide` is enlarged to it.
    var enlargesSmallImages = true

    /// The model's input size for an image: the shorter side brought up to 736 (never past
    /// 2048 on the longer), both rounded to multiples of 32.
    static func inputSize(width: Int, height: Int, enlarging: Bool = true) -> (width: Int, height: Int) {
        var scale = enlarging ? max(1, Double(shorterSide) / Double(min(width, height))) : 1
        scale = min(scale, Double(maximumSide) / Double(max(width, height)))
        func rounded(_ side: Int) -> Int { max(32, Int((Double(side) * scale / 32).rounded()) * 32) }
        return (rounded(width), rounded(height))
    }

    /// The lines in `image` (RGB), best first.
    /// - Throws: `KameraError.missingResource` when the model is not installed.
    func lines(in image: PixelBuffer) throws -> [Line] {
        let rgb = image.format == .rgb8 ? image.packed() : image.converted(to: .rgb8)
        let (width, height) = Self.inputSize(width: rgb.width, height: rgb.height, enlarging: enlargesSmallImages)
        let sessions = try models.sessions(.textDetection, inputHeight: height, inputWidth: width)
        // Enlarged (the usual case) straight into the tensor, bilinear as RapidOCR's resize;
        // shrunk by area averaging first, which keeps thin strokes.
        let enlarging = width >= rgb.width && height >= rgb.height
        let source = enlarging ? rgb : rgb.resized(width: width, height: height)
        // Corners to corners, so that no tap falls outside the picture (those would read black).
        let dx = Double(source.width - 1) / Double(max(width - 1, 1)), dy = Double(source.height - 1) / Double(max(height - 1, 1))
        let map = sessions.withSession { session -> [Float] in
            session.withInput { input in
                ImageTensorFill.sample(
                    source, along: .init(x0: 0, y0: 0, dxx: dx, dxy: 0, dyx: 0, dyy: dy),
                    into: input, width: width, height: height, scale: 1, offset: 0)
                // (v / 255 − mean) / deviation per channel.
                let (a0, a1, a2) = (1 / (255 * Self.deviation[0]), 1 / (255 * Self.deviation[1]), 1 / (255 * Self.deviation[2]))
                let (b0, b1, b2) = (-Self.mean[0] / Self.deviation[0], -Self.mean[1] / Self.deviation[1], -Self.mean[2] / Self.deviation[2])
                for p in 0..<(width * height) {
                    input[p * 3] = input[p * 3] * a0 + b0
                    input[p * 3 + 1] = input[p * 3 + 1] * a1 + b1
                    input[p * 3 + 2] = input[p * 3 + 2] * a2 + b2
                }
            }
            session.invoke()
            return Array(session.output(0))
        }
        let (sx, sy) = (Double(rgb.width) / Double(width), Double(rgb.height) / Double(height))
        return Self.boxes(probabilities: map, width: width, height: height).map { line in
            let scaled = line.corners.corners.map { p in
                PixelPoint(x: min(max(p.x * sx, 0), Double(rgb.width)), y: min(max(p.y * sy, 0), Double(rgb.height)))
            }
            return Line(
                corners: Quad(topLeft: scaled[0], topRight: scaled[1], bottomRight: scaled[2], bottomLeft: scaled[3]), score: line.score)
        }
    }

    /// DB's post-processing on a probability map: the pixels above the threshold, grown by
    /// one pixel right and down (RapidOCR's 2×2 dilation), in 8-connected regions; each
    /// region's smallest rotated rectangle, kept when the mean probability inside it reaches
    /// the box threshold, then grown by `unclipRatio` × area / perimeter on every side.
    static func boxes(probabilities map: [Float], width: Int, height: Int) -> [Line] {
        var mask = [Bool](repeating: false, count: width * height)
        for y in 0..<height {
            for x in 0..<width where map[y * width + x] > threshold {
                mask[y * width + x] = true
                if x + 1 < width { mask[y * width + x + 1] = true }
                if y + 1 < height {
                    mask[(y + 1) * width + x] = true
                    if x + 1 < width { mask[(y + 1) * width + x + 1] = true }
                }
            }
        }
        var seen = [Bool](repeating: false, count: width * height)
        var lines: [Line] = []
        var stack: [Int] = []
        for start in 0..<(width * height) where mask[start] && !seen[start] {
            var region: [PixelPoint] = []
            stack.append(start)
            seen[start] = true
            while let p = stack.popLast() {
                let (x, y) = (p % width, p / width)
                region.append(PixelPoint(x: Double(x), y: Double(y)))
                for dy in -1...1 {
                    for dx in -1...1 {
                        let (nx, ny) = (x + dx, y + dy)
                        guard nx >= 0, ny >= 0, nx < width, ny < height else { continue }
                        let q = ny * width + nx
                        if mask[q], !seen[q] {
                            seen[q] = true
                            stack.append(q)
                        }
                    }
                }
            }
            guard region.count >= 4, let rect = MinimumAreaRectangle(region), min(rect.width, rect.height) >= 3 else { continue }
            let score = meanProbability(map, width: width, height: height, inside: rect)
            guard score >= boxThreshold else { continue }
            let grow = rect.width * rect.height * unclipRatio / (2 * (rect.width + rect.height))
            var grown = rect
            (grown.width, grown.height) = (rect.width + 2 * grow, rect.height + 2 * grow)
            guard min(grown.width, grown.height) >= 5 else { continue }
            lines.append(Line(corners: grown.corners, score: score))
        }
        return lines.sorted { $0.score > $1.score }
    }

    /// The mean probability over the pixels inside a rotated rectangle.
    static func meanProbability(_ map: [Float], width: Int, height: Int, inside rect: MinimumAreaRectangle) -> Float {
        let corners = rect.corners.corners
        let (x0, x1) = (max(0, Int(corners.map(\.x).min()!.rounded(.down))), min(width - 1, Int(corners.map(\.x).max()!.rounded(.up))))
        let (y0, y1) = (max(0, Int(corners.map(\.y).min()!.rounded(.down))), min(height - 1, Int(corners.map(\.y).max()!.rounded(.up))))
        guard x0 <= x1, y0 <= y1 else { return 0 }
        let (c, s) = (cos(rect.angle), sin(rect.angle))
        var (sum, count) = (Float(0), 0)
        for y in y0...y1 {
            for x in x0...x1 {
                let (dx, dy) = (Double(x) - rect.center.x, Double(y) - rect.center.y)
                let (u, v) = (dx * c + dy * s, -dx * s + dy * c)
                if abs(u) <= rect.width / 2 + 0.5, abs(v) <= rect.height / 2 + 0.5 {
                    sum += map[y * width + x]
                    count += 1
                }
            }
        }
        return count == 0 ? 0 : sum / Float(count)
    }
}
