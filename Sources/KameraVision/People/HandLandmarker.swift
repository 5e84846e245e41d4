import Foundation
import KameraCore
import KameraNN

/// MediaPipe's hand landmark model (full) run by KameraNN on a hand's upright region: 21
/// joints in image pixels, whether a hand is there, and which hand it is.
struct HandLandmarker: Sendable {
    static let inputSize = 224

    struct Hand: Sendable {
        var joints: [PixelPoint]
        var presence: Float
        /// How likely the hand is the person's right. (Measured, not from the documentation,
        /// which speaks of mirrored selfies: on `basketball1.png` and `basketball2.png` the
        /// hands at the body pose's right wrists score 0.93, those at its left wrists 0.07.)
        var rightness: Float
    }

    private let sessions: InferenceSessionPool
    private let landmarksOutput: Int, presenceOutput: Int, handednessOutput: Int

    init(models: ModelStore) throws {
        sessions = try models.sessions(.handLandmarkFull)
        let shapes = sessions.network.outputShapes
        // Landmarks [1, 63], presence [1, 1], handedness [1, 1], world landmarks [1, 63], in that order.
        guard shapes.count == 4, shapes[0] == [1, 63], shapes[1] == [1, 1], shapes[2] == [1, 1] else {
            throw KameraError.invalidModel(path: sessions.network.path, reason: "unexpected outputs \(shapes)")
        }
        (landmarksOutput, presenceOutput, handednessOutput) = (0, 1, 2)
    }

    /// Where to look for the same hand in the next frame of a stream (MediaPipe's
    /// `HandLandmarksToRectCalculator` and the transformation after it): turned so the middle
    /// of the index, middle and ring knuckles is straight above the wrist, round the palm's and
    /// the fingers' first joints, moved a tenth of its height towards the fingers and enlarged
    /// twice to a square.
    static func nextRegion(following joints: [PixelPoint]) -> RotatedRect {
        let (wrist, index, middle, ring) = (joints[0], joints[5], joints[9], joints[13])
        let knuckles = PixelPoint(x: ((index.x + ring.x) / 2 + middle.x) / 2, y: ((index.y + ring.y) / 2 + middle.y) / 2)
        let angle = PersonDetection.uprightAngle(from: wrist, to: knuckles)
        let (c, s) = (cos(angle), sin(angle))
        // The palm and the fingers' first two joints, in the turned frame.
        let turned = [0, 1, 2, 3, 5, 6, 9, 10, 13, 14, 17, 18].map {
            (u: joints[$0].x * c + joints[$0].y * s, v: -joints[$0].x * s + joints[$0].y * c)
        }
        let (uLow, uHigh) = (turned.map(\.u).min()!, turned.map(\.u).max()!)
        let (vLow, vHigh) = (turned.map(\.v).min()!, turned.map(\.v).max()!)
        let (cu, cv) = ((uLow + uHigh) / 2, (vLow + vHigh) / 2)
        let shift = -0.1 * (vHigh - vLow)
        let center = PixelPoint(x: cu * c - cv * s - shift * s, y: cu * s + cv * c + shift * c)
        let side = 2 * max(uHigh - uLow, vHigh - vLow)
        return RotatedRect(center: center, width: side, height: side, angle: angle)
    }

    func hand(in sampler: TensorSampler, region: RotatedRect) -> Hand {
        let size = Self.inputSize
        return sessions.withSession { session in
            session.withInput {
                // MediaPipe's crop: its grid, and the edge pixels repeated past the image's edges
                // (a hand cut off by the frame reads as its own pixels stretched, not as black).
                sampler.sample(region, into: $0, width: size, height: size, range: 0...1, grid: .corners, border: .replicate)
            }
            session.invoke()
            let raw = session.output(landmarksOutput)
            // A broken model or a degenerate region can give NaN: no hand, never a trap later.
            guard raw.allSatisfy(\.isFinite) else { return Hand(joints: [], presence: 0, rightness: 0) }
            let joints = (0..<21).map {
                region.imagePoint(u: Double(raw[3 * $0]) / Double(size), v: Double(raw[3 * $0 + 1]) / Double(size))
            }
            let (presence, rightness) = (session.output(presenceOutput)[0], session.output(handednessOutput)[0])
            return Hand(
                joints: joints, presence: presence.isFinite ? min(max(presence, 0), 1) : 0,
                rightness: rightness.isFinite ? min(max(rightness, 0), 1) : 0.5)
        }
    }
}
