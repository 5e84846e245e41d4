/// Everything the scanner reports for one frame.
public struct FrameScan: Sendable {
    /// Stream time of the frame, seconds.
    public var time: Double
    public var frameIndex: Int
    public var faces: [TrackedFace]
    public var barcodes: [TrackedBarcode]
    /// Rectangles followed by their corners (empty unless the configuration asks for them).
    public var rectangles: [TrackedRectangle] = []
    /// Appeared and lost events decided at this frame.
    public var events: [ScanEvent]
    /// Whether faces were detected afresh (or followed from earlier frames) this frame.
    public var ranFaceDetection: Bool
    /// The newest finished text detection, when the configuration asks for text: found on an
    /// earlier frame (its `frameTime`), since text takes seconds to find.
    public var text: FoundText?
    /// Body poses followed, with their IDs (empty unless the configuration asks for bodies).
    public var bodies: [TrackedBody] = []
    /// Hands followed, with their IDs (empty unless the configuration asks for hands).
    public var hands: [TrackedHand] = []
    /// The person mask, steadied between frames (when the configuration asks for one).
    public var personMask: PersonSegmentationObservation?
}
