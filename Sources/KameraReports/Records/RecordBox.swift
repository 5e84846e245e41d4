import Kamera

/// A rectangle in a record: normalized with a lower-left origin (`boundingBox`) or in pixels
/// with a top-left origin (`pixelBox`), rounded by `RecordRounding`.
package struct RecordBox: Codable, Sendable, Equatable {
    package var x, y, width, height: Double

    package init(_ rect: NormalizedRect) {
        let n = RecordRounding.normalized
        (x, y, width, height) = (n(rect.x), n(rect.y), n(rect.width), n(rect.height))
    }

    package init(_ rect: PixelRect) {
        let p = RecordRounding.pixels
        (x, y, width, height) = (p(rect.x), p(rect.y), p(rect.width), p(rect.height))
    }
}
