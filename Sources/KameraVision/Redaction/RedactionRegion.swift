import KameraCore

/// One area covered on one frame, with why it was covered there.
public struct RedactionRegion: Sendable, Equatable {
    /// Why a region is covered on a frame.
    public enum Source: String, Sendable, Codable {
        /// A detector found it on this very frame.
        case detected
        /// Its detector missed it on this frame; it was followed there by its look.
        case followed
        /// Between two sightings of the same track: placed part-way between them.
        case interpolated
        /// After the track's last sighting, for the hold time.
        case held
        /// Before the track's first sighting (or before it came back), for the lead time.
        case ahead
        /// The person mask of this frame.
        case mask
    }

    /// What is covered.
    public var kind: RedactionKind
    /// The track the region belongs to: the same number on every frame the same face, code,
    /// line of text or person is covered (unique within one redaction, never reused). A
    /// followed face can have two regions on one frame: where its look was followed to, and
    /// where its detections' path puts it.
    public var trackID: Int
    /// The outline covered, padding included, in the frame's pixels.
    public var shape: RedactionShape
    /// Why the region is covered on this frame.
    public var source: Source

    public init(kind: RedactionKind, trackID: Int, shape: RedactionShape, source: Source) {
        (self.kind, self.trackID, self.shape, self.source) = (kind, trackID, shape, source)
    }
}
