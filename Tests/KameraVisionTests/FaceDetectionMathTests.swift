import Foundation
import KameraCore
import KameraTestTiers
import Testing

@testable import KameraNN
@testable import KameraVision

/// The arithmetic around the face models: anchors, weighted NMS and the tensor sampler.
@Suite(.tier(.unit)) struct FaceDetectionMathTests {
    @Test("SSD anchors: 896 for short range, 2304 for full range, centred on their grid cells (input pixels)")
    func anchors() {
        let short = SSDAnchors.centers(width: 128, height: 128, strides: [8, 16, 16, 16], anchorsPerLayer: 2)
        let full = SSDAnchors.centers(width: 192, height: 192, strides: [4], anchorsPerLayer: 1)
        #expect(short.count == 896 && full.count == 2304)
        // Stride 8 on 128: a 16×16 grid, two anchors per cell, the first at (4, 4).
        #expect(short[0] == (x: 4, y: 4) && short[1] == short[0] && short[2] == (x: 12, y: 4))
        // Then the three stride-16 layers share an 8×8 grid with 6 anchors per cell.
        #expect(short[512] == (x: 8, y: 8) && short[517] == short[512] && short[518] == (x: 24, y: 8))
        #expect(full[2303] == (x: 190, y: 190), "stride 4 on 192: a 48×48 grid")
        // A resized full-range model (a scan block) keeps stride 4 over its own width and height, row by row.
        let block = SSDAnchors.centers(width: 384, height: 256, strides: [4], anchorsPerLayer: 1)
        #expect(block.count == 96 * 64 && block[95] == (x: 382, y: 2) && block[96] == (x: 2, y: 6))
    }

    @Test(
        "Scan blocks: sides are multiples of 32 under the area cap, and every 64 px square of the scaled image lies inside one block",
        arguments: [[1280, 960, 1], [2000, 1400, 1], [2000, 1400, 1.0 / 3], [640, 480, 1], [300, 200, 1], [4000, 3000, 0.32]] as [[Double]])
    func scanBlocks(size: [Double]) {
        let (width, height, scale) = (size[0], size[1], size[2])
        let blocks = ScanBlocks.blocks(width: width, height: height, scale: scale, overlap: 64, alignment: 32)
        #expect(!blocks.isEmpty)
        for block in blocks {
            #expect(block.width % 32 == 0 && block.height % 32 == 0 && block.width * block.height <= ScanBlocks.maximumArea)
            // Regions are the block's tensor size in image pixels (one scale for the whole level).
            #expect(abs(block.region.width * scale - Double(block.width)) < 1e-6)
            #expect(abs(block.region.height * scale - Double(block.height)) < 1e-6)
        }
        // Faces up to 64 scaled pixels anywhere in the image fit wholly in some block.
        let face = 64 / scale
        var uncovered = 0
        for y in stride(from: 0, through: max(height - face, 0), by: face / 5) {
            for x in stride(from: 0, through: max(width - face, 0), by: face / 5) {
                let inside = blocks.contains { b in
                    b.region.minX <= x + 1e-6 && b.region.minY <= y + 1e-6 && b.region.maxX >= x + face - 1e-6
                        && b.region.maxY >= y + face - 1e-6
                }
                if !inside { uncovered += 1 }
            }
        }
        #expect(uncovered == 0)
        // Not much more than the image is run: at most 1.6× its scaled pixels (the overlaps and rounding to 32).
        let run = blocks.reduce(0) { $0 + $1.width * $1.height }
        #expect(Double(run) <= 1.6 * max(width * scale, 32) * max(height * scale, 32) + 32 * 32 * 4)
    }

    @Test("Weighted NMS: overlapping detections merge into their score-weighted mean; apart ones stay")
    func weightedNMS() {
        func detection(_ x: Double, _ score: Float) -> FaceDetection {
            FaceDetection(
                box: PixelRect(x: x, y: 0, width: 100, height: 100),
                keypoints: (0..<6).map { PixelPoint(x: x + Double($0), y: 50) }, score: score)
        }
        let merged = WeightedNonMaxSuppression.apply([detection(0, 0.6), detection(10, 0.9), detection(300, 0.7)], threshold: 0.3)
        #expect(merged.count == 2)
        let first = merged[0]
        #expect(first.score == 0.9, "the cluster keeps its best score")
        #expect(abs(first.box.x - (0 * 0.6 + 10 * 0.9) / 1.5) < 1e-5, "box x is the weighted mean: \(first.box.x)")
        #expect(abs(first.keypoints[2].x - (2 * 0.6 + 12 * 0.9) / 1.5) < 1e-5, "weights are the Float scores")
        #expect(merged[1].box.x == 300)
        // A stricter threshold keeps the two overlapping ones apart (IoU of 10 px shift ≈ 0.82).
        #expect(WeightedNonMaxSuppression.apply([detection(0, 0.6), detection(10, 0.9)], threshold: 0.9).count == 2)
        #expect(
            WeightedNonMaxSuppression.apply([detection(0, 0.6), detection(10, 0.9), detection(300, 0.7)], threshold: 0.3, limit: 1).count
                == 1)
    }

    /// An 8×6 image whose pixel (x, y) holds 10x + 60c + y in channel c: every sample says where it read.
    static let ramp: PixelBuffer = {
        var image = PixelBuffer(width: 8, height: 6, format: .rgb8)
        for y in 0..<6 { for x in 0..<8 { for c in 0..<3 { image.bytes[y * image.bytesPerRow + x * 3 + c] = UInt8(10 * x + 60 * c + y) } } }
        return image
    }()

    @Test("Tensor sampler: an axis-aligned crop at tensor size reads the pixels themselves; mirrored flips them")
    func sampler() {
        let sampler = TensorSampler(rgb: Self.ramp)
        var tensor = [Float](repeating: -1, count: 4 * 4 * 3)
        // The 4×4 block at (2, 1): centre (4, 3) in pixel-edge coordinates is (3.5, 2.5) in centres.
        let rect = RotatedRect(center: PixelPoint(x: 3.5, y: 2.5), width: 4, height: 4, angle: 0)
        tensor.withUnsafeMutableBufferPointer { sampler.sample(rect, into: $0, width: 4, height: 4, range: 0...255) }
        for ty in 0..<4 {
            for tx in 0..<4 {
                for c in 0..<3 {
                    #expect(abs(tensor[(ty * 4 + tx) * 3 + c] - Float(10 * (tx + 2) + 60 * c + ty + 1)) < 1e-3)
                }
            }
        }
        tensor.withUnsafeMutableBufferPointer { sampler.sample(rect, into: $0, width: 4, height: 4, range: 0...1, mirrored: true) }
        #expect(abs(tensor[0] - Float(10 * 5 + 1) / 255) < 1e-4, "mirrored: the first tensor pixel is the crop's last column")
        // Outside the image reads zero (MediaPipe's border).
        let outside = RotatedRect(center: PixelPoint(x: -20, y: -20), width: 4, height: 4, angle: 0)
        tensor.withUnsafeMutableBufferPointer { sampler.sample(outside, into: $0, width: 4, height: 4, range: 0...1) }
        #expect(tensor.allSatisfy { $0 == 0 })
    }

    @Test(
        "Tensor sampler: MediaPipe's grid puts the tensor's corner pixel on the region's corner; the replicated border repeats edge pixels"
    )
    func mediaPipeGridAndReplicatedBorder() {
        let sampler = TensorSampler(rgb: Self.ramp)
        var tensor = [Float](repeating: -1, count: 4 * 4 * 3)
        // Centre (4, 3), 4 wide: corner (2, 1), and tensor pixel (tx, ty) reads pixel (2 + tx, 1 + ty) exactly
        // (as OpenCV's warp of the region's corners onto the tensor's does in MediaPipe).
        let block = RotatedRect(center: PixelPoint(x: 4, y: 3), width: 4, height: 4, angle: 0)
        tensor.withUnsafeMutableBufferPointer { sampler.sample(block, into: $0, width: 4, height: 4, range: 0...255, grid: .corners) }
        for ty in 0..<4 {
            for tx in 0..<4 {
                for c in 0..<3 { #expect(abs(tensor[(ty * 4 + tx) * 3 + c] - Float(10 * (tx + 2) + 60 * c + ty + 1)) < 1e-3) }
            }
        }
        // Over the right edge: columns 5, 6, 7 and then 7 again, not black.
        let overEdge = RotatedRect(center: PixelPoint(x: 7, y: 3), width: 4, height: 4, angle: 0)
        tensor.withUnsafeMutableBufferPointer {
            sampler.sample(overEdge, into: $0, width: 4, height: 4, range: 0...255, grid: .corners, border: .replicate)
        }
        for ty in 0..<4 {
            for tx in 0..<4 { #expect(abs(tensor[(ty * 4 + tx) * 3] - Float(10 * min(5 + tx, 7) + ty + 1)) < 1e-3) }
        }
        // Far outside, up and left: every tap is the corner pixel.
        let outside = RotatedRect(center: PixelPoint(x: -20, y: -20), width: 4, height: 4, angle: 0.3)
        tensor.withUnsafeMutableBufferPointer {
            sampler.sample(outside, into: $0, width: 4, height: 4, range: 0...255, grid: .corners, border: .replicate)
        }
        for p in 0..<16 { for c in 0..<3 { #expect(abs(tensor[p * 3 + c] - Float(60 * c)) < 1e-3) } }
    }

    @Test("Tensor sampler: a map that puts samples at NaN or 1e30 reads zeros, or the edge pixels when replicating")
    func wildMapsReadTheBorder() {
        for (x0, dxx) in [(Double.nan, 1.0), (1e30, 0.0), (-1e30, 1e28), (3.0, Double.infinity)] {
            for border in [ImageTensorFill.Border.zero, .replicate] {
                // Turned (the general path) and axis-aligned (the separable one).
                for dxy in [0.0, 0.5] {
                    var tensor = [Float](repeating: -1, count: 4 * 4 * 3)
                    tensor.withUnsafeMutableBufferPointer {
                        ImageTensorFill.sample(
                            Self.ramp, along: .init(x0: x0, y0: 2, dxx: dxx, dxy: dxy, dyx: 0, dyy: 1), into: $0, width: 4, height: 4,
                            scale: 1, offset: 0, border: border)
                    }
                    // Every value is a real grey level: zero, or (replicating) one of the image's.
                    #expect(tensor.allSatisfy { $0.isFinite && $0 >= 0 && $0 <= 255 }, "x0 \(x0), dxx \(dxx), \(border): \(tensor)")
                    if border == .zero, !x0.isFinite || abs(x0) > 100 { #expect(tensor.allSatisfy { $0 == 0 }) }
                }
            }
        }
    }

    /// Bilinear sampling written out plainly in doubles, zero outside the image (or the nearest
    /// edge pixel with `replicate`).
    private static func reference(_ image: PixelBuffer, x: Double, y: Double, channel: Int, replicate: Bool = false) -> Double {
        let x0 = Int(x.rounded(.down)), y0 = Int(y.rounded(.down))
        let fx = x - Double(x0), fy = y - Double(y0)
        var sum = 0.0
        for (dx, dy, weight) in [(0, 0, (1 - fx) * (1 - fy)), (1, 0, fx * (1 - fy)), (0, 1, (1 - fx) * fy), (1, 1, fx * fy)] {
            var (px, py) = (x0 + dx, y0 + dy)
            if replicate { (px, py) = (min(max(px, 0), image.width - 1), min(max(py, 0), image.height - 1)) }
            guard px >= 0, py >= 0, px < image.width, py < image.height else { continue }
            sum += weight * Double(image.pixel(x: px, y: py)[channel])
        }
        return sum
    }

    @Test(
        "Tensor sampler: turned looks match plain bilinear sampling, inside (eight pixels at a time with AVX2) and across the border",
        arguments: [(0.4, 1.3, 40.0, 30.0), (2.5, 0.7, 6.0, 50.0), (-1.1, 1.9, 70.0, 8.0)])
    func turnedSamplingMatchesReference(angle: Double, step: Double, x0: Double, y0: Double) {
        var random = SystemRandomNumberGenerator()
        var image = PixelBuffer(width: 80, height: 60, format: .rgb8)
        for i in image.bytes.indices { image.bytes[i] = UInt8.random(in: 0...255, using: &random) }
        // 37 columns: four runs of eight and a tail of five.
        let (width, height) = (37, 11)
        let map = ImageTensorFill.AffineMap(
            x0: x0, y0: y0, dxx: step * cos(angle), dxy: step * sin(angle), dyx: -step * sin(angle), dyy: step * cos(angle))
        for border in [ImageTensorFill.Border.zero, .replicate] {
            var tensor = [Float](repeating: -1, count: width * height * 3)
            tensor.withUnsafeMutableBufferPointer {
                ImageTensorFill.sample(image, along: map, into: $0, width: width, height: height, scale: 1, offset: 0, border: border)
            }
            var worst = 0.0
            for ty in 0..<height {
                for tx in 0..<width {
                    let x = map.x0 + Double(tx) * map.dxx + Double(ty) * map.dyx
                    let y = map.y0 + Double(tx) * map.dxy + Double(ty) * map.dyy
                    for c in 0..<3 {
                        let expected = Self.reference(image, x: x, y: y, channel: c, replicate: border == .replicate)
                        worst = max(worst, abs(Double(tensor[(ty * width + tx) * 3 + c]) - expected))
                    }
                }
            }
            #expect(worst < 0.02, "\(border): largest difference \(worst) grey levels")
        }
    }

    @Test(
        "Tensor sampler: axis-aligned looks (the separable path) match plain bilinear sampling, inside, across the border and mirrored",
        arguments: [false, true])
    func axisAlignedSamplingMatchesReference(mirrored: Bool) {
        var random = SystemRandomNumberGenerator()
        var image = PixelBuffer(width: 23, height: 17, format: .rgb8)
        for i in image.bytes.indices { image.bytes[i] = UInt8.random(in: 0...255, using: &random) }
        let sampler = TensorSampler(rgb: image)
        let (width, height) = (9, 7)
        // Scales below 2 source pixels a tensor pixel stay on level 0; one region hangs over two edges.
        for rect in [
            RotatedRect(center: PixelPoint(x: 11.3, y: 8.6), width: 13.5, height: 9.1, angle: 0),
            RotatedRect(center: PixelPoint(x: 2.2, y: 15.4), width: 12, height: 10, angle: 0),
        ] {
            for border in [ImageTensorFill.Border.zero, .replicate] {
                var tensor = [Float](repeating: -1, count: width * height * 3)
                tensor.withUnsafeMutableBufferPointer {
                    sampler.sample(rect, into: $0, width: width, height: height, range: 0...255, mirrored: mirrored, border: border)
                }
                var worst = 0.0
                for ty in 0..<height {
                    for tx in 0..<width {
                        let u = (mirrored ? Double(width - tx) - 0.5 : Double(tx) + 0.5) / Double(width) - 0.5
                        let v = (Double(ty) + 0.5) / Double(height) - 0.5
                        let x = rect.center.x + u * rect.width, y = rect.center.y + v * rect.height
                        for c in 0..<3 {
                            let expected = Self.reference(image, x: x, y: y, channel: c, replicate: border == .replicate)
                            worst = max(worst, abs(Double(tensor[(ty * width + tx) * 3 + c]) - expected))
                        }
                    }
                }
                #expect(worst < 0.02, "largest difference \(worst) grey levels for \(rect), \(border)")
            }
        }
    }

    @Test("Box reduction: each pixel is the rounded mean of its block, for every power-of-two factor; leftovers dropped")
    func reduction() {
        var random = SystemRandomNumberGenerator()
        var image = PixelBuffer(width: 37, height: 35, format: .rgb8)
        for i in image.bytes.indices { image.bytes[i] = UInt8.random(in: 0...255, using: &random) }
        for factor in [1, 2, 4, 8, 16] {
            let reduced = ImageTensorFill.reduced(image, by: factor)
            #expect(reduced.width == 37 / factor && reduced.height == 35 / factor)
            for y in 0..<reduced.height {
                for x in 0..<reduced.width {
                    for c in 0..<3 {
                        var sum = 0
                        for by in 0..<factor { for bx in 0..<factor { sum += Int(image.pixel(x: x * factor + bx, y: y * factor + by)[c]) } }
                        let area = factor * factor
                        #expect(Int(reduced.pixel(x: x, y: y)[c]) == (sum + area / 2) / area, "factor \(factor) at \(x),\(y)")
                    }
                }
            }
        }
        // A white image stays white at the largest factor (16 × 16 × 255 fills 16 bits exactly).
        let white = PixelBuffer(width: 32, height: 16, format: .rgb8, filledWith: [255, 255, 255])
        #expect(ImageTensorFill.reduced(white, by: 16).bytes == [UInt8](repeating: 255, count: 6))
        // Narrower than one block: one black pixel, not uninitialized memory.
        #expect(ImageTensorFill.reduced(white, by: 16).width == 2)
        let thin = ImageTensorFill.reduced(PixelBuffer(width: 3, height: 40, format: .rgb8, filledWith: [9, 9, 9]), by: 4)
        #expect(thin.width == 1 && thin.height == 1 && thin.bytes == [0, 0, 0])
    }
}
