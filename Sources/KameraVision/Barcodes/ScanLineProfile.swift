import KameraCore

/// Brightness sampled along a segment of a grayscale image (each sample the mean of a few
/// points across the segment, which evens out noise), and how many bar edges it crosses:
/// a cheap look at whether bars go on beyond a symbol that was read.
struct ScanLineProfile {
    /// Brightness (0–255) from the segment's start to its end.
    private(set) var values: [Double] = []

    /// Samples `gray` from `start` to `end` every `step` pixels, each sample averaged over
    /// points up to `across` pixels to either side of the segment.
    init(_ gray: PixelBuffer, from start: PixelPoint, to end: PixelPoint, step: Double, across: Double) {
        let dx = end.x - start.x, dy = end.y - start.y
        let length = (dx * dx + dy * dy).squareRoot()
        guard length.isFinite, step > 0, length / step < 100_000, gray.format == .gray8 else { return }
        let count = Int(length / step) + 1
        let (ux, uy) = (dx / max(length, 1e-9), dy / max(length, 1e-9))
        let offsets = across > 0 ? [-across, -across / 2, 0, across / 2, across] : [0]
        var values = [Double](repeating: 0, count: count)
        gray.bytes.withUnsafeBufferPointer { pixels in
            let sampler = BilinearSampler(pixels, of: gray)
            for i in 0..<count {
                let t = Double(i) * step
                var sum = 0.0
                for o in offsets { sum += sampler.sample(x: start.x + ux * t - uy * o, y: start.y + uy * t + ux * o, channel: 0) }
                values[i] = sum / Double(offsets.count)
            }
        }
        self.values = values
    }

    /// The difference between the brightest and the darkest sample (0 when empty).
    var contrast: Double { (values.max() ?? 0) - (values.min() ?? 0) }

    /// Bar edges crossed, counted as turns from darkening to brightening or back, each by more
    /// than `threshold` (noise and blur below it count as none). The first edge is not a turn:
    /// a bar between two light gaps is one turn, so n bars give 2n − 1.
    func edges(threshold: Double) -> Int {
        guard var extreme = values.first else { return 0 }
        var rising: Bool?
        var turns = 0
        for value in values.dropFirst() {
            switch rising {
            case nil:
                if abs(value - extreme) > threshold { rising = value > extreme; extreme = value }
            case true?:
                if value > extreme {
                    extreme = value
                } else if extreme - value > threshold {
                    turns += 1; rising = false; extreme = value
                }
            case false?:
                if value < extreme {
                    extreme = value
                } else if value - extreme > threshold {
                    turns += 1; rising = true; extreme = value
                }
            }
        }
        return turns
    }
}
