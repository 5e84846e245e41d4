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

/// A code in one frame, keyed by what it says (the seed keeps one layer per decoded string).
public struct TrackedBarcode: Sendable {
    /// How the code changed since the frame before.
    public enum State: String, Sendable { case appeared, moved, still }

    public var key: String
    public var observation: BarcodeObservation
    public var state: State
}

/// Everything the scanner reports for one frame.
public struct FrameScan: Sendable {
    /// Stream time of the frame, seconds.
    public var time: Double
    public var frameIndex: Int
    public var faces: [TrackedFace]
    public var barcodes: [TrackedBarcode]
    /// Appeared and lost events decided at this frame.
    public var events: [ScanEvent]
    /// Whether faces were detected afresh (or followed from earlier frames) this frame.
    public var ranFaceDetection: Bool
}
