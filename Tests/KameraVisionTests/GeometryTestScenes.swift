import Foundation
import Kamera
import KameraTestMedia

/// Scenes shared by the rectangle and document tests: one of each kind over a different real
/// photo, with the hard cases the issue names (low contrast, a corner cut by the frame).
enum GeometryTestScenes {
    struct Case: Sendable {
        var kind: DocumentScene.Kind
        var background: String
        var seed: UInt64
        var cutByFrame = false
        var lowContrast = false
    }

    static let cases: [Case] = [
        Case(kind: .card, background: "fruits.jpg", seed: 1001, lowContrast: true),
        Case(kind: .screen, background: "orange.jpg", seed: 1002),
        Case(kind: .page, background: "home.jpg", seed: 1004, cutByFrame: true, lowContrast: true),
        Case(kind: .sign, background: "apple.jpg", seed: 1007, lowContrast: true),
        Case(kind: .page, background: "starry_night.jpg", seed: 1008),
        Case(kind: .sign, background: "baboon.jpg", seed: 1023),
        Case(kind: .card, background: "messi5.jpg", seed: 1033),
    ]

    static func make(_ scene: Case) throws -> DocumentScene {
        try DocumentScene.make(
            kind: scene.kind, background: scene.background, seed: scene.seed, cutByFrame: scene.cutByFrame,
            lowContrast: scene.lowContrast)
    }

    /// The largest corner distance (pixels) between `found` and `truth`, over the four ways
    /// round the quad could start (a square-ish object has no intrinsic "top").
    static func cornerError(_ found: Quad, _ truth: Quad) -> Double {
        let f = found.corners, t = truth.corners
        return (0..<4).map { start in (0..<4).map { hypot(f[(start + $0) % 4].x - t[$0].x, f[(start + $0) % 4].y - t[$0].y) }.max()! }
            .min()!
    }

    static func diagonal(_ quad: Quad) -> Double {
        hypot(quad.bottomRight.x - quad.topLeft.x, quad.bottomRight.y - quad.topLeft.y)
    }
}
