import Foundation
import KameraCore

/// A similarity of the image plane — scale, turn, shift — about the frame's centre:
/// `p' = scale · R(rotation) · p + translation`, with `p` measured from the centre in pixels
/// (x right, y down). Camera motion between frames and the corrections that stabilize it are
/// these: a hand-held camera shakes in shift and roll, and zooms a little when it moves to and
/// from the subject.
public struct SimilarityTransform: Sendable, Hashable, Codable {
    /// Magnification (1 = none).
    public var scale: Double
    /// Turn in radians, clockwise on screen (y points down).
    public var rotation: Double
    /// Shift in pixels, after scaling and turning.
    public var translationX: Double
    public var translationY: Double

    public init(scale: Double = 1, rotation: Double = 0, translationX: Double = 0, translationY: Double = 0) {
        self.scale = scale
        self.rotation = rotation
        self.translationX = translationX
        self.translationY = translationY
    }

    /// No change.
    public static let identity = SimilarityTransform()

    /// Where `point` (from the centre) goes.
    public func apply(_ point: PixelPoint) -> PixelPoint {
        let c = cos(rotation) * scale, s = sin(rotation) * scale
        return PixelPoint(x: c * point.x - s * point.y + translationX, y: s * point.x + c * point.y + translationY)
    }

    /// `self` after `other`: `(self ∘ other)(p) = self(other(p))`.
    public func after(_ other: SimilarityTransform) -> SimilarityTransform {
        let shifted = apply(PixelPoint(x: other.translationX, y: other.translationY))
        return SimilarityTransform(
            scale: scale * other.scale, rotation: rotation + other.rotation, translationX: shifted.x, translationY: shifted.y)
    }

    /// The transform that undoes this one (a zero scale, which no fit produces, undoes to itself).
    public var inverse: SimilarityTransform {
        guard scale != 0, scale.isFinite else { return self }
        let c = cos(-rotation) / scale, s = sin(-rotation) / scale
        return SimilarityTransform(
            scale: 1 / scale, rotation: -rotation, translationX: -(c * translationX - s * translationY),
            translationY: -(s * translationX + c * translationY))
    }

    /// Whether every parameter is a finite number and the scale positive.
    public var isFinite: Bool {
        scale.isFinite && scale > 0 && rotation.isFinite && translationX.isFinite && translationY.isFinite
    }

    /// The same transform on pixel coordinates (origin top-left) of a `width`×`height` frame,
    /// as a row-major 2×3 matrix: `x' = m[0]·x + m[1]·y + m[2]`, `y' = m[3]·x + m[4]·y + m[5]`.
    public func pixelMatrix(width: Int, height: Int) -> [Double] {
        let cx = Double(width) / 2, cy = Double(height) / 2
        let c = cos(rotation) * scale, s = sin(rotation) * scale
        return [c, -s, translationX + cx - (c * cx - s * cy), s, c, translationY + cy - (s * cx + c * cy)]
    }

    /// The similarity part of a pixel-coordinate 2×3 matrix (as `pixelMatrix` writes them) of a
    /// `width`×`height` frame; nil when `matrix` does not hold six finite numbers.
    public init?(pixelMatrix matrix: [Double], width: Int, height: Int) {
        guard matrix.count == 6, matrix.allSatisfy(\.isFinite) else { return nil }
        let cx = Double(width) / 2, cy = Double(height) / 2
        // The linear part's similarity: the average of its two column readings, so a fit that is
        // slightly affine still gives one scale and one turn.
        let a = (matrix[0] + matrix[4]) / 2, b = (matrix[3] - matrix[1]) / 2
        let scale = (a * a + b * b).squareRoot()
        guard scale > 0 else { return nil }
        self.init(
            scale: scale, rotation: atan2(b, a),
            translationX: matrix[0] * cx + matrix[1] * cy + matrix[2] - cx,
            translationY: matrix[3] * cx + matrix[4] * cy + matrix[5] - cy)
    }
}
