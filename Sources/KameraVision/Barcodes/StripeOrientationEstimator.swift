import Foundation
import KameraCore

/// Finds where bar-like structure (linear and stacked codes) lies and at which angle it
/// runs. zxing-cpp reads linear codes and PDF417 only within a few degrees of horizontal or
/// vertical, so the thorough effort turns each such region (not the whole photo) to its
/// angle before reading it again.
///
/// Bars are a patch of strong gradients that all point one way: per cell of a reduced copy
/// the structure tensor gives the dominant gradient direction and how coherent it is;
/// neighbouring coherent cells at a similar angle form one region.
enum StripeOrientationEstimator {
    /// A patch of parallel bars: where (pixels of the analysed image) and the gradient
    /// direction across the bars, degrees 0 ..< 180 clockwise from the x axis.
    struct Region: Equatable {
        var bounds: PixelRect
        var gradientAngle: Double
    }

    /// Side of a cell in the reduced image, pixels.
    static let cellSize = 12
    /// Longer side of the reduced image.
    static let analysisDimension = 640

    /// `gray` box-averaged over `factor` × `factor` blocks (the remainder rows and columns
    /// dropped): cheap, and enough to see bars by.
    static func reduced(_ gray: PixelBuffer, by factor: Int) -> PixelBuffer {
        guard factor > 1 else { return gray }
        let width = gray.width / factor, height = gray.height / factor
        var out = PixelBuffer(width: max(1, width), height: max(1, height), format: .gray8)
        let area = factor * factor, stride = gray.bytesPerRow
        gray.bytes.withUnsafeBufferPointer { source in
            out.bytes.withUnsafeMutableBufferPointer { destination in
                let src = source.baseAddress!, dst = destination.baseAddress!
                for y in 0..<height {
                    for x in 0..<width {
                        var sum = 0
                        for dy in 0..<factor {
                            let row = src + (y * factor + dy) * stride + x * factor
                            for dx in 0..<factor { sum += Int(row[dx]) }
                        }
                        dst[y * out.bytesPerRow + x] = UInt8((sum + area / 2) / area)
                    }
                }
            }
        }
        return out
    }

    /// Bar regions in `gray` (8-bit luminance), largest first.
    static func regions(in gray: PixelBuffer) -> [Region] {
        let factor = max(1, Int((Double(max(gray.width, gray.height)) / Double(analysisDimension)).rounded(.up)))
        let small = reduced(gray, by: factor)
        let scale = Double(factor)
        let cell = cellSize
        let columns = small.width / cell, rows = small.height / cell
        guard columns > 0, rows > 0 else { return [] }
        // Per cell: doubled-angle orientation (radians) and whether it is bar-like.
        var orientation = [Double](repeating: 0, count: columns * rows)
        var barLike = [Bool](repeating: false, count: columns * rows)
        let stride = small.bytesPerRow
        small.bytes.withUnsafeBufferPointer { pixels in
            let p = pixels.baseAddress!
            // The Sobel gradients in one cell strong enough to be a bar's edge (texture and
            // noise are weaker).
            @inline(__always) func strongGradients(inCell cx: Int, _ cy: Int, _ body: (_ gx: Int, _ gy: Int) -> Void) {
                for y in max(1, cy * cell)..<min(small.height - 1, (cy + 1) * cell) {
                    let above = p + (y - 1) * stride, row = p + y * stride, below = p + (y + 1) * stride
                    for x in max(1, cx * cell)..<min(small.width - 1, (cx + 1) * cell) {
                        let gx =
                            Int(above[x + 1]) + 2 * Int(row[x + 1]) + Int(below[x + 1])
                            - Int(above[x - 1]) - 2 * Int(row[x - 1]) - Int(below[x - 1])
                        let gy =
                            Int(below[x - 1]) + 2 * Int(below[x]) + Int(below[x + 1])
                            - Int(above[x - 1]) - 2 * Int(above[x]) - Int(above[x + 1])
                        if gx * gx + gy * gy > 6_400 { body(gx, gy) }
                    }
                }
            }
            for cy in 0..<rows {
                for cx in 0..<columns {
                    var jxx = 0, jyy = 0, jxy = 0, strong = 0
                    strongGradients(inCell: cx, cy) { gx, gy in
                        jxx += gx * gx
                        jyy += gy * gy
                        jxy += gx * gy
                        strong += 1
                    }
                    let sum = Double(jxx + jyy)
                    guard strong * 4 > cell * cell, sum > 0 else { continue }
                    let difference = Double(jxx - jyy), cross = 2 * Double(jxy)
                    let coherence = (difference * difference + cross * cross).squareRoot() / sum
                    guard coherence > 0.65 else { continue }
                    let index = cy * columns + cx
                    orientation[index] = atan2(cross, difference)
                    // Bars have edges of both polarities (dark→light and light→dark) in about
                    // equal number; the edge of a roof, a shadow or a window frame has one.
                    let direction = orientation[index] / 2
                    let (ux, uy) = (cos(direction), sin(direction))
                    var rising = 0, falling = 0
                    strongGradients(inCell: cx, cy) { gx, gy in
                        if Double(gx) * ux + Double(gy) * uy > 0 { rising += 1 } else { falling += 1 }
                    }
                    barLike[index] = min(rising, falling) * 4 >= rising + falling
                }
            }
        }
        // Connected components of bar-like cells whose angles agree within ~10°.
        var label = [Int](repeating: -1, count: columns * rows)
        var regions: [(cells: Int, minX: Int, minY: Int, maxX: Int, maxY: Int, sumCos: Double, sumSin: Double)] = []
        let tolerance = 20.0 * .pi / 180  // doubled angles
        for start in 0..<(columns * rows) where barLike[start] && label[start] < 0 {
            let id = regions.count
            var region = (cells: 0, minX: Int.max, minY: Int.max, maxX: 0, maxY: 0, sumCos: 0.0, sumSin: 0.0)
            var stack = [start]
            label[start] = id
            while let index = stack.popLast() {
                let x = index % columns, y = index / columns
                region.cells += 1
                region.minX = min(region.minX, x); region.maxX = max(region.maxX, x)
                region.minY = min(region.minY, y); region.maxY = max(region.maxY, y)
                region.sumCos += cos(orientation[index]); region.sumSin += sin(orientation[index])
                for dy in -1...1 {
                    for dx in -1...1 where dx != 0 || dy != 0 {
                        let nx = x + dx, ny = y + dy
                        guard nx >= 0, ny >= 0, nx < columns, ny < rows else { continue }
                        let neighbour = ny * columns + nx
                        guard barLike[neighbour], label[neighbour] < 0 else { continue }
                        var delta = abs(orientation[neighbour] - orientation[index])
                        if delta > .pi { delta = 2 * .pi - delta }
                        guard delta < tolerance else { continue }
                        label[neighbour] = id
                        stack.append(neighbour)
                    }
                }
            }
            regions.append(region)
        }
        // One symbol often falls apart into several components (a PDF417's rows, a code
        // crossed by a glare or a fold, bent by perspective): join components within ~15°
        // whose cell boxes are at most two cells apart (four within 5°).
        func angleOf(_ r: (cells: Int, minX: Int, minY: Int, maxX: Int, maxY: Int, sumCos: Double, sumSin: Double)) -> Double {
            atan2(r.sumSin, r.sumCos)
        }
        var merged = true
        while merged {
            merged = false
            search: for i in regions.indices {
                for j in regions.indices where j > i {
                    let a = regions[i], b = regions[j]
                    var delta = abs(angleOf(a) - angleOf(b))
                    if delta > .pi { delta = 2 * .pi - delta }
                    // Parts at one angle may lie further apart: a PDF417's middle columns
                    // can all fall below the coherence bar.
                    let gap = delta < tolerance / 2 ? 4 : 2
                    guard delta < 1.5 * tolerance, a.minX <= b.maxX + gap, b.minX <= a.maxX + gap,
                        a.minY <= b.maxY + gap, b.minY <= a.maxY + gap
                    else { continue }
                    regions[i] = (
                        a.cells + b.cells, min(a.minX, b.minX), min(a.minY, b.minY), max(a.maxX, b.maxX),
                        max(a.maxY, b.maxY), a.sumCos + b.sumCos, a.sumSin + b.sumSin
                    )
                    regions.remove(at: j)
                    merged = true
                    break search
                }
            }
        }
        // A code covers a few cells at least; pad each region by two cells (quiet zones and
        // the bars' ends, whose cells are weaker) and map it to the analysed image.
        return regions.filter { $0.cells >= 3 }.sorted { $0.cells > $1.cells }.map { region in
            var angle = atan2(region.sumSin, region.sumCos) / 2 * 180 / .pi
            if angle < 0 { angle += 180 }
            let pad = 2 * cell
            let x0 = region.minX * cell - pad, y0 = region.minY * cell - pad
            let x1 = (region.maxX + 1) * cell + pad, y1 = (region.maxY + 1) * cell + pad
            let bounds = PixelRect(
                x: Double(x0) * scale, y: Double(y0) * scale,
                width: Double(x1 - x0) * scale, height: Double(y1 - y0) * scale)
            return Region(bounds: bounds.intersection(gray.bounds) ?? gray.bounds, gradientAngle: angle)
        }
    }
}

extension StripeOrientationEstimator {
    /// The mean gradient angle (degrees, 0..<180) of `regions`, weighted by area; angles are
    /// axial, so they are averaged doubled.
    static func meanAngle(of regions: [Region]) -> Double {
        var (x, y) = (0.0, 0.0)
        for region in regions {
            let doubled = region.gradientAngle * 2 * .pi / 180
            x += region.bounds.area * cos(doubled)
            y += region.bounds.area * sin(doubled)
        }
        var angle = atan2(y, x) / 2 * 180 / .pi
        if angle < 0 { angle += 180 }
        return angle
    }
}
