import KameraCore

/// A ``RectangleObservation`` as JSON (`kamera detect --rectangles`, `kamera document`), keys
/// in declaration order: top-left `pixelCorners` in the order topLeft, topRight, bottomRight,
/// bottomLeft (as for codes), the normalized lower-left `boundingBox`, and `confidence`.
public struct RectangleRecord: Codable, Sendable, Equatable {
    public var pixelCorners: [[Double]]
    public var boundingBox: RecordBox
    public var pixelBox: RecordBox
    public var confidence: Double

    public init(_ o: RectangleObservation) {
        pixelCorners = o.pixelCorners.corners.map { [RecordRounding.pixels($0.x), RecordRounding.pixels($0.y)] }
        boundingBox = RecordBox(o.boundingBox)
        pixelBox = RecordBox(o.pixelBounds)
        confidence = RecordRounding.score(Double(o.confidence))
    }
}
