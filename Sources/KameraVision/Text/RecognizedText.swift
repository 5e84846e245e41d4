import KameraCore

/// A text candidate with its confidence.
public struct RecognizedText: Sendable, Hashable {
    public var string: String
    /// 0…1.
    public var confidence: Float
}
