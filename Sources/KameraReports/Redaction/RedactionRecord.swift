import Kamera

/// One frame's line in `kamera redact --audit`: what was covered, where and why.
package struct RedactionRecord: Codable, Sendable, Equatable {
    /// One covered area.
    package struct Area: Codable, Sendable, Equatable {
        package var kind: RedactionKind
        /// The same on every frame the same thing is covered.
        package var track: Int
        /// detected, followed (by its look), interpolated, held, ahead or mask. A followed
        /// face can have two areas on a frame: where it was followed to, and where its
        /// detections' path puts it (held or interpolated).
        package var source: RedactionRegion.Source
        /// Its bounds in pixels, top-left origin, padding included.
        package var box: RecordBox
    }

    /// The frame's position, from 0 (0 for a photo).
    package var frame: Int
    /// The frame's time, seconds.
    package var t: Double
    package var areas: [Area]
    /// Where the person mask covered pixels (their bounds), when people are redacted.
    package var people: RecordBox?

    package init(_ frame: RedactedFrame) {
        self.frame = frame.index
        t = RecordRounding.seconds(frame.time)
        areas = frame.regions.map {
            Area(kind: $0.kind, track: $0.trackID, source: $0.source, box: RecordBox($0.shape.bounds))
        }
        people = frame.personBounds.map(RecordBox.init)
    }
}
