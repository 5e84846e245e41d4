/// A rectangle (page, card, screen, sign) in one frame of a stream, with the identity the
/// scanner keeps for it while it is followed.
public struct TrackedRectangle: Sendable {
    public var rectangleID: Int
    public var observation: RectangleObservation
    /// Whether this frame found it by detection (false: followed from the previous frame).
    public var isDetected: Bool
}
