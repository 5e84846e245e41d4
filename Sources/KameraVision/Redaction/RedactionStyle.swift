/// How a covered region looks.
public enum RedactionStyle: String, Sendable, Codable, CaseIterable {
    /// A heavy blur: the region is shrunk to about a dozen pixels across and blurred there,
    /// so no detail finer than a twelfth of the face survives (a light Gaussian can be undone
    /// well enough to recognize someone; this cannot).
    case blur
    /// Coarse blocks, about ten across the region, each the mean of its pixels.
    case pixelate
    /// Solid black.
    case fill
}
