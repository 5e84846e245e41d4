import KameraTestTiers
import Testing

@testable import KameraVision

/// `FloatMask.resampled`, which brings person masks to the image's size and mixes live
/// backgrounds: the separable stretch gives, value for value, the four-tap bilinear blend.
@Suite(.tier(.unit)) struct FloatMaskTests {
    /// A mask of uneven values (no two rows or columns alike).
    static func mask(_ width: Int, _ height: Int) -> FloatMask {
        FloatMask(
            width: width, height: height,
            values: (0..<width * height).map { Float(($0 * 7919) % 1000) / 999 })
    }

    @Test(
        "Up, down and to odd sizes: each value the bilinear blend of its four taps",
        arguments: [
            (256, 256, 640, 480), (256, 144, 1280, 720), (256, 256, 97, 301), (16, 9, 5, 3), (3, 2, 1, 1),
        ])
    func sameAsFourTaps(size: (Int, Int, Int, Int)) {
        let (width, height, newWidth, newHeight) = size
        let source = Self.mask(width, height)
        let resampled = source.resampled(width: newWidth, height: newHeight)
        #expect(resampled.width == newWidth && resampled.height == newHeight && resampled.values.count == newWidth * newHeight)
        let columns = FloatMask.taps(newWidth, width), rows = FloatMask.taps(newHeight, height)
        var differing = 0
        for (y, (r0, r1, fy)) in rows.enumerated() {
            for (x, (c0, c1, fx)) in columns.enumerated() {
                let v = source.values
                let upper = v[r0 * width + c0] + (v[r0 * width + c1] - v[r0 * width + c0]) * fx
                let lower = v[r1 * width + c0] + (v[r1 * width + c1] - v[r1 * width + c0]) * fx
                if resampled.values[y * newWidth + x] != upper + (lower - upper) * fy { differing += 1 }
            }
        }
        #expect(differing == 0, "\(differing) values differ")
    }

    @Test("No pixels asked for: an empty mask, no crash")
    func emptyTarget() {
        let empty = Self.mask(4, 4).resampled(width: 0, height: 3)
        #expect(empty.values.isEmpty)
    }
}
