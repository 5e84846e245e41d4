/// A person's body pose in one frame of a stream, with the identity the scanner keeps for it:
/// `bodyID` stays the same while the person is in view, through brief misses, and is never
/// given to another person.
public struct TrackedBody: Sendable {
    public var bodyID: Int
    public var observation: HumanBodyPoseObservation
    /// Whether the detector found the person this frame (false: followed from the pose in
    /// the previous frame, as MediaPipe's streaming pipeline does).
    public var isDetected: Bool
}
