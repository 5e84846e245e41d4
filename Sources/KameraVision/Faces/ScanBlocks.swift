import Foundation
import KameraCore

/// How one scale of the face scan is cut into model runs (`BlazeFaceDetector.scan`): blocks
/// of the image resampled by `scale`, each side a multiple of the model's largest stride,
/// overlapping by at least `overlap` tensor pixels so every face up to that size lies wholly
/// inside one block. Of all the ways to cut the image into columns and rows of equal blocks,
/// the one with the fewest pixels to run wins, among those whose blocks stay under
/// `maximumArea` pixels: larger blocks spill the caches (a 1280×960 run cost 25 % more per
/// pixel than a 384×384 one here) and each idle session keeps an arena that size; and on the
/// bench's small faces, 384² blocks kept the recall of the 192 px crops better than 512×544.
struct ScanBlocks {
    /// One model run: the image region it covers and the input size it is sampled to.
    struct Block: Sendable {
        var region: PixelRect
        var width: Int
        var height: Int
    }

    static let maximumArea = 384 * 384

    /// Blocks covering a `width` × `height` image scanned at `scale` tensor pixels per image pixel.
    static func blocks(width: Double, height: Double, scale: Double, overlap: Int, alignment: Int) -> [Block] {
        let extentX = width * scale, extentY = height * scale
        func side(_ extent: Double, _ count: Int) -> Int {
            let needed = Int(((extent + Double((count - 1) * overlap)) / Double(count)).rounded(.up))
            return max((needed + alignment - 1) / alignment * alignment, alignment)
        }
        var best: (columns: Int, rows: Int, pixels: Int, fits: Bool)?
        for columns in 1...16 {
            for rows in 1...16 {
                let w = side(extentX, columns), h = side(extentY, rows)
                // More than one block along a side only when a block is shorter than the side.
                if (columns > 1 && Double(w) >= extentX) || (rows > 1 && Double(h) >= extentY) { continue }
                let pixels = columns * rows * w * h, fits = w * h <= maximumArea
                guard let current = best else {
                    best = (columns, rows, pixels, fits)
                    continue
                }
                if (fits && !current.fits) || (fits == current.fits && pixels < current.pixels) {
                    best = (columns, rows, pixels, fits)
                }
            }
        }
        guard let best else { return [] }
        let w = side(extentX, best.columns), h = side(extentY, best.rows)
        // Block origins (scaled pixels) spread evenly from the first edge to the last; a single
        // block wider than the image is centred on it (the model sees black beyond, as in a letterbox).
        func origins(_ extent: Double, _ count: Int, _ size: Int) -> [Double] {
            guard count > 1 else { return [(extent - Double(size)) / 2] }
            return (0..<count).map { Double($0) * (extent - Double(size)) / Double(count - 1) }
        }
        var blocks: [Block] = []
        for y in origins(extentY, best.rows, h) {
            for x in origins(extentX, best.columns, w) {
                blocks.append(
                    Block(
                        region: PixelRect(x: x / scale, y: y / scale, width: Double(w) / scale, height: Double(h) / scale),
                        width: w, height: h))
            }
        }
        return blocks
    }
}
