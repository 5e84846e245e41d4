/// Something that happened between frames: a face, code, rectangle, body or hand came into
/// view or left it.
public struct ScanEvent: Sendable, Hashable {
    public enum Kind: String, Sendable { case face, barcode, rectangle, body, hand }
    public enum EventType: String, Sendable { case appeared, lost }

    public var type: EventType
    public var kind: Kind
    /// The face, rectangle, body or hand ID (as text) or the code's key.
    public var id: String
    /// Stream time of the frame the event belongs to, seconds.
    public var time: Double

    public init(type: EventType, kind: Kind, id: String, time: Double) {
        self.type = type
        self.kind = kind
        self.id = id
        self.time = time
    }
}
