/// What a redaction covers.
public enum RedactionKind: String, Sendable, Codable, CaseIterable, Comparable {
    /// Faces, covered by an ellipse around the head.
    case face
    /// Barcodes and 2-D codes that could be read, covered by their outline.
    case barcode
    /// Text lines (signs, plates, documents, screens), covered by their outline.
    case text
    /// Whole people, covered by the box round their body pose and by the person mask.
    case person

    public static func < (a: RedactionKind, b: RedactionKind) -> Bool {
        allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
    }

    /// The padding used when none is given: a fraction of the region's size added on each
    /// side. A face box from the detector is tight around the features; a quarter more on
    /// each side keeps hair, ears and chin covered (an ellipse in that box still holds the
    /// box's corners). Codes and text outlines are already where the ink is. A body's box
    /// runs joint to joint: the head's top, hair and feet lie beyond it.
    public var defaultPadding: Double {
        switch self {
        case .face: 0.25
        case .barcode, .text: 0.1
        case .person: 0.15
        }
    }
}
