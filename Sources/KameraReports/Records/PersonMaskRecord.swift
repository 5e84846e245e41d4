import Kamera

/// A ``PersonSegmentationObservation`` as JSON (`kamera detect --person-mask`): the mask's own
/// size, the share of it that shows a person, and where the people are (`pixelBox` in the
/// image's pixels, top-left origin; nil when nobody is in view). The mask itself is a picture:
/// the CLI writes it with `--mask-out`.
package struct PersonMaskRecord: Codable, Sendable, Equatable {
    package var quality: GeneratePersonSegmentationRequest.QualityLevel
    package var width: Int
    package var height: Int
    package var coverage: Double
    @Nullable package var pixelBox: RecordBox?

    package init(_ o: PersonSegmentationObservation, quality: GeneratePersonSegmentationRequest.QualityLevel) {
        self.quality = quality
        (width, height) = (o.width, o.height)
        coverage = RecordRounding.score(o.coverage)
        pixelBox = o.personBounds.map { bounds in
            let (sx, sy) = (o.imageSize.width / Double(o.width), o.imageSize.height / Double(o.height))
            return RecordBox(PixelRect(x: bounds.x * sx, y: bounds.y * sy, width: bounds.width * sx, height: bounds.height * sy))
        }
    }
}
