import KameraCore

/// A frame (or photo) with its redactions painted, and what was covered.
public struct RedactedFrame: Sendable {
    /// The covered picture, packed RGB, the size of the frame given.
    public var pixelBuffer: PixelBuffer
    /// The frame's time in its stream, seconds (0 for a photo).
    public var time: Double
    /// The frame's position in its stream, from 0.
    public var index: Int
    /// The outlines covered, with the tracks they belong to and why.
    public var regions: [RedactionRegion]
    /// Where the person mask covered pixels on this frame (their bounds), when people are
    /// redacted and some were found.
    public var personBounds: PixelRect?
}
