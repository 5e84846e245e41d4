/// Text lines found on one frame of a stream, reported with later frames until the next
/// detection finishes.
public struct FoundText: Sendable {
    /// Stream time of the frame the text was found on, seconds.
    public var frameTime: Double
    /// The lines, in that frame's coordinates.
    public var lines: [TextObservation]
}
