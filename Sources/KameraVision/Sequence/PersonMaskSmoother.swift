import Foundation

/// Steadies a stream's person masks (MediaPipe's segmentation smoothing, by the same idea):
/// where the new mask is sure (near 0 or 1) it is taken as it is; where it hesitates (near ½,
/// the flickering edge) it leans on the previous frame's mask, in proportion to its
/// uncertainty (binary entropy, 1 at ½). A changed mask size starts afresh.
struct PersonMaskSmoother {
    /// How far an entirely uncertain pixel leans on the previous frame (0…1).
    let combineWithPrevious: Float
    private var previous: FloatMask?

    init(combineWithPrevious: Float = 0.9) {
        self.combineWithPrevious = combineWithPrevious
    }

    mutating func smooth(_ mask: FloatMask) -> FloatMask {
        guard let before = previous, before.width == mask.width, before.height == mask.height else {
            previous = mask
            return mask
        }
        var out = mask
        let ratio = combineWithPrevious
        out.values.withUnsafeMutableBufferPointer { values in
            before.values.withUnsafeBufferPointer { old in
                for i in values.indices {
                    let p = min(max(values[i], 1e-6), 1 - 1e-6)
                    let entropy = -(p * log2(p) + (1 - p) * log2(1 - p))
                    values[i] = p + (old[i] - p) * ratio * entropy
                }
            }
        }
        previous = out
        return out
    }
}
