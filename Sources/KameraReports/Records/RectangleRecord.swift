import Kamera

/// A ``RectangleObservation`` as JSON (`kamera detect --rectangles`, `kamera document`), keys
/// in declaration order: top-left `pixelCorners` in the order topLeft, topRight, bottomRight,
/// bottomLeft (as for codes), the normalized lower-left `boundingBox`, and `confidence`.
package struct RectangleRecord: Codable, Sendable, Equatable {
    package var pixelCorners: [[Double]]
    package var boundingBox: RecordBox
    package var pixelBox: RecordBox
    package var confidence: Double

    package init(_ o: RectangleObservation) {
        pixelCorners = o.pixelCorners.corners.map { [RecordRounding.pixels($0.x), RecordRounding.pixels($0.y)] }
        boundingBox = RecordBox(o.boundingBox)
        pixelBox = RecordBox(o.pixelBounds)
        confidence = RecordRounding.score(Double(o.confidence))
    }
}
