import Foundation
import KameraCore

/// How much a stabilizing correction must magnify the frame so that no edge of the picture
/// shows: the output's corners, mapped back through the correction, must land inside the
/// frame that was captured.
struct StabilizationCrop: Sendable {
    let width: Double
    let height: Double

    init(width: Int, height: Int) {
        self.width = Double(width)
        self.height = Double(height)
    }

    /// The least magnification (≥ 1) that hides the edges after `correction` (captured frame →
    /// steadied frame, about the centre); infinity when none can (a shift past the frame).
    func zoomNeeded(for correction: SimilarityTransform) -> Double {
        let back = correction.inverse
        let c = cos(back.rotation) * back.scale, s = sin(back.rotation) * back.scale
        let halfWidth = width / 2, halfHeight = height / 2
        // A corner q of the output, magnified by z, samples back(q / z) = A·q / z + u: each
        // coordinate must stay within the half-size, which bounds 1/z from above.
        var inverseZoom = 1.0
        for (qx, qy) in [(-halfWidth, -halfHeight), (halfWidth, -halfHeight), (halfWidth, halfHeight), (-halfWidth, halfHeight)] {
            for (reach, shift, half) in [(c * qx - s * qy, back.translationX, halfWidth), (s * qx + c * qy, back.translationY, halfHeight)]
            {
                let room = half - abs(shift)
                guard room > 0 else { return .infinity }
                if abs(reach) > 1e-12 {
                    // |reach/z + shift| ≤ half for z ≥ 1; the binding side is the one reach points to.
                    let allowed = (half - (reach > 0 ? shift : -shift)) / abs(reach)
                    inverseZoom = min(inverseZoom, allowed)
                }
            }
        }
        return inverseZoom > 0 ? 1 / inverseZoom : .infinity
    }

    /// The smoothed point moved back toward the captured one (`raw`) just far enough that its
    /// correction needs no more than `zoom`: a bisection on the fraction kept.
    func limited(_ smooth: CameraPath.Point, raw: CameraPath.Point, zoom: Double) -> CameraPath.Point {
        func fits(_ point: CameraPath.Point) -> Bool {
            zoomNeeded(for: point.transform.after(raw.transform.inverse)) <= zoom
        }
        if fits(smooth) { return smooth }
        var kept = 0.0, dropped = 1.0
        for _ in 0..<24 {
            let middle = (kept + dropped) / 2
            if fits(raw.moved(toward: smooth, by: middle)) { kept = middle } else { dropped = middle }
        }
        return raw.moved(toward: smooth, by: kept)
    }
}
