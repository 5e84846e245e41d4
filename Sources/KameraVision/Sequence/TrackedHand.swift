/// A hand in one frame of a stream, with the identity the scanner keeps for it: `handID`
/// stays the same while the hand is in view, through brief misses, and is never given to
/// another hand. Its chirality is decided when it appears and kept.
public struct TrackedHand: Sendable {
    public var handID: Int
    public var observation: HumanHandPoseObservation
    /// Whether the hand was found afresh this frame (at a body's wrist or by the palm
    /// detector); false: followed from its joints in the previous frame.
    public var isDetected: Bool
}
