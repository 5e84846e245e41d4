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

    func hand(in sampler: TensorSampler, region: RotatedRect) -> Hand {
        let size = Self.inputSize
        return sessions.withSession { session in
            session.withInput { sampler.sample(region, into: $0, width: size, height: size, range: 0...1) }
            session.invoke()
            let raw = session.output(landmarksOutput)
            let joints = (0..<21).map {
                region.imagePoint(u: Double(raw[3 * $0]) / Double(size), v: Double(raw[3 * $0 + 1]) / Double(size))
            }
            return Hand(
                joints: joints, presence: min(max(session.output(presenceOutput)[0], 0), 1),
                rightness: min(max(session.output(handednessOutput)[0], 0), 1))
        }
    }
}
