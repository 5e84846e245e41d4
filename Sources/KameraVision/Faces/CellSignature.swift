import KameraCore

/// A frame cut into square cells, each summed up by its mean brightness and its texture (mean
/// brightness step between neighbouring pixels): enough to tell which parts of a stream's
/// picture changed since an earlier frame, at a few percent of one model run's cost.
///
/// Texture is kept beside brightness because a change can keep a cell's mean: a head turning
/// from profile to the camera swaps hair for a face of about the same brightness, but not the
/// same edges.
struct CellSignature: Sendable {
    /// Side of a cell, pixels.
    static let cellSide = 16

    let width: Int
    let height: Int
    /// Cells across and down (the last column and row may be partial).
    let columns: Int
    let rows: Int
    /// Per cell, row by row: mean brightness (0…255).
    private(set) var brightness: [Float]
    /// Per cell: mean absolute step to the right and downward neighbours (0…255).
    private(set) var texture: [Float]

    /// - Parameter frame: RGB, RGBA, BGRA or grey; brightness is (R + 2G + B) / 4, sampled on
    ///   every other pixel of every other row (cells are 16 px: 64 samples each).
    init(_ frame: PixelBuffer) {
        let side = Self.cellSide
        (width, height) = (frame.width, frame.height)
        columns = (frame.width + side - 1) / side
        rows = (frame.height + side - 1) / side
        var brightness = [Float](repeating: 0, count: columns * rows)
        var texture = [Float](repeating: 0, count: columns * rows)
        var counts = [Float](repeating: 0, count: columns * rows)
        let (step, bytesPerRow, w, h, columns) = (frame.format.bytesPerPixel, frame.bytesPerRow, frame.width, frame.height, columns)
        let (r, g, b) =
            switch frame.format {
            case .gray8: (0, 0, 0)
            case .rgb8, .rgba8: (0, 1, 2)
            case .bgra8: (2, 1, 0)
            }
        frame.bytes.withUnsafeBufferPointer { pixels in
            func luma(_ x: Int, _ y: Int) -> Int {
                let p = y * bytesPerRow + x * step
                return (Int(pixels[p + r]) + 2 * Int(pixels[p + g]) + Int(pixels[p + b])) >> 2
            }
            for y in stride(from: 0, to: h, by: 2) {
                let cellRow = (y / side) * columns
                let below = min(y + 1, h - 1)
                for x in stride(from: 0, to: w, by: 2) {
                    let here = luma(x, y)
                    let stepSize = abs(luma(min(x + 1, w - 1), y) - here) + abs(luma(x, below) - here)
                    let cell = cellRow + x / side
                    brightness[cell] += Float(here)
                    texture[cell] += Float(stepSize)
                    counts[cell] += 1
                }
            }
        }
        for cell in counts.indices where counts[cell] > 0 {
            brightness[cell] /= counts[cell]
            texture[cell] /= counts[cell]
        }
        (self.brightness, self.texture) = (brightness, texture)
    }

    /// The cells a pixel region touches, as column and row ranges (empty when it misses the frame).
    func cells(touching region: PixelRect) -> (columns: Range<Int>, rows: Range<Int>) {
        func span(_ low: Double, _ high: Double, _ count: Int) -> Range<Int> {
            guard low.isFinite, high.isFinite else { return 0..<0 }
            let first = max(0, min(count, Int(max(0, low) / Double(Self.cellSide))))
            let end = max(first, min(count, Int((max(0, min(Double(count * Self.cellSide), high)) / Double(Self.cellSide)).rounded(.up))))
            return first..<end
        }
        return (span(region.minX, region.maxX, columns), span(region.minY, region.maxY, rows))
    }

    /// The cells of `region` (indices, row by row) that differ from `earlier`'s by more than
    /// `brightnessChange` in mean brightness or `textureChange` in texture (levels); all of
    /// them when the frames' sizes differ.
    func changedCells(in region: PixelRect, since earlier: CellSignature, brightnessChange: Float, textureChange: Float) -> Set<Int> {
        let (spanX, spanY) = cells(touching: region)
        var changed = Set<Int>()
        let sameSize = earlier.width == width && earlier.height == height
        for row in spanY {
            for column in spanX {
                let cell = row * columns + column
                if !sameSize || abs(brightness[cell] - earlier.brightness[cell]) > brightnessChange
                    || abs(texture[cell] - earlier.texture[cell]) > textureChange
                {
                    changed.insert(cell)
                }
            }
        }
        return changed
    }

    /// Whether `region` touches any of `cells` (indices as ``changedCells(in:since:brightnessChange:textureChange:)``'s).
    func touches(_ region: PixelRect, anyOf cells: Set<Int>) -> Bool {
        guard !cells.isEmpty else { return false }
        let (spanX, spanY) = self.cells(touching: region)
        return spanY.contains { row in spanX.contains { cells.contains(row * columns + $0) } }
    }

    /// This signature with the cells `region` touches taken from `newer` (the rest kept): what
    /// a block of which only that region was scanned on `newer` last saw. A different size: `newer`.
    func updating(_ region: PixelRect, from newer: CellSignature) -> CellSignature {
        guard newer.width == width, newer.height == height else { return newer }
        var result = self
        let (spanX, spanY) = cells(touching: region)
        for row in spanY {
            for column in spanX {
                let cell = row * columns + column
                result.brightness[cell] = newer.brightness[cell]
                result.texture[cell] = newer.texture[cell]
            }
        }
        return result
    }
}
