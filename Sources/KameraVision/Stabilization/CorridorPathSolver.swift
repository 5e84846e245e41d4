import Foundation

/// The camera path's shift made as smooth as possible while every frame stays inside the crop.
///
/// With the turn and scale of each frame's correction settled, the shifts that keep a frame's
/// edges hidden at a given zoom form a box (one interval across, one down) in the correction's
/// inverse shift — a linear function of the path's shift. The path solved for minimizes its
/// acceleration (second differences) plus a light pull toward the Gaussian-smoothed path,
/// subject to every frame being in its box: a convex problem, solved by accelerated projected
/// gradient (FISTA). Unlike pulling single frames back toward the shaky camera, which leaves a
/// jerk wherever the crop runs out, the path starts to lean toward a coming jolt seconds
/// ahead and eases back after it.
struct CorridorPathSolver {
    let crop: StabilizationCrop
    let zoom: Double
    /// The smoothing's σ in frames; the pull toward the smoothed path has its cut-off above
    /// the frequencies that smoothing keeps.
    let sigma: Double
    var iterations = 400

    /// `smooth` with its shifts re-solved to fit; the turns and scales are kept.
    func solve(raw: [CameraPath.Point], smooth: [CameraPath.Point]) -> [CameraPath.Point] {
        let count = raw.count
        guard count > 2 else { return smooth }
        let frames = raw.indices.map { FrameBox(raw: raw[$0], smooth: smooth[$0], crop: crop, zoom: zoom) }
        let target = smooth.map { ($0.x, $0.y) }
        let weight = pow(2 / max(sigma, 1), 4)
        let step = 1 / (32 + 2 * weight)
        var current = target.indices.map { frames[$0].project(target[$0]) }
        var previous = current
        var lookahead = current
        var momentum = 1.0
        var gradient = [(Double, Double)](repeating: (0, 0), count: count)
        var curvature = [(Double, Double)](repeating: (0, 0), count: count)
        for _ in 0..<iterations {
            // ∇ = 2·D₂ᵀD₂·y + 2·w·(y − target), D₂ the second difference.
            for k in 1..<(count - 1) {
                curvature[k] = (
                    lookahead[k - 1].0 - 2 * lookahead[k].0 + lookahead[k + 1].0,
                    lookahead[k - 1].1 - 2 * lookahead[k].1 + lookahead[k + 1].1
                )
            }
            for k in 0..<count {
                var gx = 2 * weight * (lookahead[k].0 - target[k].0), gy = 2 * weight * (lookahead[k].1 - target[k].1)
                for (offset, factor) in [(-1, 1.0), (0, -2.0), (1, 1.0)] {
                    let j = k + offset
                    guard j >= 1, j <= count - 2 else { continue }
                    gx += 2 * factor * curvature[j].0
                    gy += 2 * factor * curvature[j].1
                }
                gradient[k] = (gx, gy)
            }
            previous = current
            current = (0..<count).map { k in
                frames[k].project((lookahead[k].0 - step * gradient[k].0, lookahead[k].1 - step * gradient[k].1))
            }
            let next = (1 + (1 + 4 * momentum * momentum).squareRoot()) / 2
            let carry = (momentum - 1) / next
            momentum = next
            lookahead = (0..<count).map { k in
                (current[k].0 + carry * (current[k].0 - previous[k].0), current[k].1 + carry * (current[k].1 - previous[k].1))
            }
        }
        return smooth.indices.map { k in
            CameraPath.Point(x: current[k].0, y: current[k].1, angle: smooth[k].angle, logScale: smooth[k].logScale)
        }
    }

    /// One frame's allowed shifts. The correction's inverse, captured ← steadied, has the
    /// linear part `A = (s_raw / s_smooth)·R(θ_raw − θ_smooth)` and the shift
    /// `u = t_raw − A·t_smooth`; the zoomed output's corners stay inside the captured frame
    /// exactly when `u` lies in a box.
    struct FrameBox {
        let a: (Double, Double, Double, Double)
        let rawShift: (Double, Double)
        let low: (Double, Double)
        let high: (Double, Double)

        init(raw: CameraPath.Point, smooth: CameraPath.Point, crop: StabilizationCrop, zoom: Double) {
            let scale = exp(raw.logScale - smooth.logScale), turn = raw.angle - smooth.angle
            let c = cos(turn) * scale, s = sin(turn) * scale
            a = (c, -s, s, c)
            rawShift = (raw.x, raw.y)
            let halfWidth = crop.width / 2, halfHeight = crop.height / 2
            var reachX: [Double] = [], reachY: [Double] = []
            for (qx, qy) in [(-halfWidth, -halfHeight), (halfWidth, -halfHeight), (halfWidth, halfHeight), (-halfWidth, halfHeight)] {
                reachX.append((c * qx - s * qy) / zoom)
                reachY.append((s * qx + c * qy) / zoom)
            }
            low = (-halfWidth - reachX.min()!, -halfHeight - reachY.min()!)
            high = (halfWidth - reachX.max()!, halfHeight - reachY.max()!)
        }

        /// The nearest allowed shift (nearest in the inverse's shift; an empty box — the turn
        /// alone needs more than the zoom — gives its middle).
        func project(_ shift: (Double, Double)) -> (Double, Double) {
            let ux = rawShift.0 - (a.0 * shift.0 + a.1 * shift.1), uy = rawShift.1 - (a.2 * shift.0 + a.3 * shift.1)
            func clamp(_ value: Double, _ lo: Double, _ hi: Double) -> Double { lo > hi ? (lo + hi) / 2 : min(max(value, lo), hi) }
            let cx = clamp(ux, low.0, high.0), cy = clamp(uy, low.1, high.1)
            if cx == ux && cy == uy { return shift }
            // t = A⁻¹·(t_raw − u); A is a scaled turn, so A⁻¹ = Aᵀ / det.
            let dx = rawShift.0 - cx, dy = rawShift.1 - cy, det = a.0 * a.3 - a.1 * a.2
            return ((a.0 * dx + a.2 * dy) / det, (a.1 * dx + a.3 * dy) / det)
        }
    }
}
