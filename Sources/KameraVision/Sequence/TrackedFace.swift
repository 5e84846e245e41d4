/// A face in one frame of a stream, with the identity the scanner keeps for it (like
/// AVMetadataFaceObject): `faceID` stays the same while the face is in view, through brief
/// misses, and is never given to another face.
public struct TrackedFace: Sendable {
    public var faceID: Int
    public var observation: FaceObservation
    /// Roll in degrees (AVMetadataFaceObject's unit); counter-clockwise as seen is positive.
    public var rollAngle: Double { observation.roll.inDegrees }
    /// Yaw in degrees; turned toward the image's right is positive.
    public var yawAngle: Double { observation.yaw.inDegrees }
    /// Whether this frame ran the full detector (false: followed from the previous frame).
    public var isDetected: Bool
}
