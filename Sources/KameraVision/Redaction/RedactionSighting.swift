/// One thing to cover, seen on one frame: what the redaction timeline is fed.
public struct RedactionSighting: Sendable, Equatable {
    /// What was seen.
    public var kind: RedactionKind
    /// The detector's own identity for it, when it keeps one (a face ID, a code's payload):
    /// sightings with the same identity belong to one track. Without one (text lines), a
    /// sighting joins the track it overlaps most.
    public var detectorID: String?
    /// The outline to cover, padding included, in the frame's pixels.
    public var shape: RedactionShape

    public init(kind: RedactionKind, detectorID: String? = nil, shape: RedactionShape) {
        (self.kind, self.detectorID, self.shape) = (kind, detectorID, shape)
    }
}
