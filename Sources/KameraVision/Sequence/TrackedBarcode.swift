/// A code in one frame, keyed by what it says (the seed keeps one layer per decoded string).
public struct TrackedBarcode: Sendable {
    /// How the code changed since the frame before.
    public enum State: String, Sendable { case appeared, moved, still }

    public var key: String
    public var observation: BarcodeObservation
    public var state: State
}
