import KameraCore
import KameraNN

/// Covers faces, codes, text and people in photos (``redact(_:)``) and, through
/// ``StreamRedactor``, in video: what `kamera redact`, `POST /v1/redact` and the live view's
/// privacy setting run.
public struct Redactor: Sendable {
    /// What to cover and how.
    public struct Configuration: Sendable {
        /// What is covered (default: faces).
        public var kinds: Set<RedactionKind>
        /// How covered pixels look (default: blur).
        public var style: RedactionStyle
        /// A fraction of each region's size added on every side, 0…2; nil takes each kind's
        /// ``RedactionKind/defaultPadding``.
        public var padding: Double?
        /// Faces below this detector confidence are not covered. Lower than detection's 0.5:
        /// a blurred patch of wall costs little, an uncovered face is the failure.
        public var minimumFaceConfidence: Float
        /// Smallest face side to look for, pixels; nil takes the detector's default.
        public var minimumFaceSize: Double?
        /// Whether streams look for faces at finer scales too (tiles: small, distant faces), a
        /// full scan every eighth frame with known faces followed between;
        /// false scans whole frames only (faces above about a twentieth of the frame; faster).
        /// Photos always scan tiles.
        public var tiledStreamFaces: Bool
        /// Seconds a face is followed by its look after its detector lost it (streams; 0 turns
        /// following off): a head turned away or half hidden stays covered while it is still
        /// there, then `hold` applies from where it was last followed.
        public var follow: Double
        /// Seconds a region stays covered after it was last seen (streams).
        public var hold: Double
        /// Seconds a region is covered before it is first seen, by holding frames back
        /// (streams; 0 for a live view that must not lag).
        public var lead: Double
        /// The text reader that finds lines (automatic: PP-OCR's detector for scene text).
        public var textEngine: RecognizeTextRequest.Engine
        /// Where the models are read from.
        public var modelStore: ModelStore

        public init(
            kinds: Set<RedactionKind> = [.face], style: RedactionStyle = .blur, padding: Double? = nil,
            minimumFaceConfidence: Float = 0.4, minimumFaceSize: Double? = nil, tiledStreamFaces: Bool = true,
            follow: Double = 4, hold: Double = 1, lead: Double = 1, textEngine: RecognizeTextRequest.Engine = .automatic,
            modelStore: ModelStore = .default
        ) {
            (self.kinds, self.style, self.padding) = (kinds, style, padding)
            (self.minimumFaceConfidence, self.minimumFaceSize, self.tiledStreamFaces) =
                (minimumFaceConfidence, minimumFaceSize, tiledStreamFaces)
            (self.follow, self.hold, self.lead, self.textEngine, self.modelStore) = (follow, hold, lead, textEngine, modelStore)
        }

        /// Refuses out-of-range settings, naming them.
        /// - Throws: `KameraError.invalidArgument`.
        public func validate() throws {
            guard !kinds.isEmpty else { throw KameraError.invalidArgument("nothing to redact: name faces, codes, text or people") }
            if let padding, !(padding.isFinite && (0...2).contains(padding)) {
                throw KameraError.invalidArgument("padding must be 0…2 (a fraction of each region's size)")
            }
            guard minimumFaceConfidence.isFinite, (0...1).contains(minimumFaceConfidence) else {
                throw KameraError.invalidArgument("minConfidence must be between 0 and 1")
            }
            if let minimumFaceSize, !(minimumFaceSize.isFinite && minimumFaceSize > 0 && minimumFaceSize <= 100_000) {
                throw KameraError.invalidArgument("minFaceSize must be a positive number of pixels, at most 100000")
            }
            guard follow.isFinite, (0...60).contains(follow) else { throw KameraError.invalidArgument("follow must be 0…60 seconds") }
            guard hold.isFinite, (0...60).contains(hold) else { throw KameraError.invalidArgument("hold must be 0…60 seconds") }
            guard lead.isFinite, (0...60).contains(lead) else { throw KameraError.invalidArgument("lead must be 0…60 seconds") }
        }

        /// The padding for regions of `kind`.
        func padding(for kind: RedactionKind) -> Double { padding ?? kind.defaultPadding }

        /// The face request for a photo (tiles) or a stream.
        func faceRequest(tiled: Bool) -> DetectFaceRectanglesRequest {
            var request = DetectFaceRectanglesRequest(
                minimumFaceSize: minimumFaceSize, scansTiles: tiled, minimumConfidence: minimumFaceConfidence)
            request.modelStore = modelStore
            return request
        }

        /// The text request.
        var textRequest: DetectTextRectanglesRequest {
            var request = DetectTextRectanglesRequest()
            request.engine = textEngine
            return request
        }

        /// The scanner's configuration for a stream: only the detectors redaction needs.
        var scannerConfiguration: LiveScanner.Configuration {
            var segmentation = GeneratePersonSegmentationRequest(qualityLevel: .fast, maskSize: .model)
            segmentation.modelStore = modelStore
            var configuration = LiveScanner.Configuration(
                faceDetection: kinds.contains(.face) ? faceRequest(tiled: tiledStreamFaces) : nil,
                // Balanced effort: a code readable in the output is what must not be missed.
                barcodes: kinds.contains(.barcode) ? DetectBarcodesRequest(effort: .balanced) : nil,
                // The scanner's own hold is short; the timeline holds for as long as asked.
                // With tiles, the full scan runs every few frames and known faces are followed
                // on the frames between; a face it finds late is covered back to its first
                // frames by the lead.
                faceLostAfter: 0.4, codeLostAfter: 0.2,
                text: kinds.contains(.text) ? textRequest : nil,
                bodies: kinds.contains(.person) ? DetectHumanBodyPoseRequest(maximumPeople: 4) : nil,
                personSegmentation: kinds.contains(.person) ? segmentation : nil)
            // A tiled scan every eighth frame, whatever the CPU: the same file gives the same
            // output on any machine (a time budget would scan more often on a faster one).
            configuration.detectionEvery = tiledStreamFaces ? Self.tiledScanEvery : nil
            return configuration
        }

        /// Frames from one tiled face scan to the next on video, chosen on the development clips
        /// (720p: every 8 or 10 frames left no face uncovered at 28 fps on two cores; every 3
        /// or 4 ran at 16–19 fps and covered no more).
        static let tiledScanEvery = 8
    }

    public let configuration: Configuration

    /// - Throws: `KameraError.invalidArgument` when the configuration is out of range.
    public init(configuration: Configuration = Configuration()) throws {
        try configuration.validate()
        self.configuration = configuration
    }

    /// A person's outline from the box round their joints: widened by `padding` on each side
    /// and raised by half the box's width again above (the joints stop at the eyes and ears).
    static func personShape(_ box: PixelRect, padding: Double) -> RedactionShape {
        let grown = box.expanded(dx: box.width * padding, dy: box.height * padding)
        let head = box.width * 0.5
        return .polygon(Quad(PixelRect(x: grown.x, y: grown.y - head, width: grown.width, height: grown.height + head)).corners)
    }

    /// `image` with everything the configuration names covered: faces at every scale
    /// (tiles), codes at balanced effort, text lines, and people by the accurate mask.
    /// - Throws: the detectors' errors (a model missing or corrupt: `missingResource`,
    ///   `invalidModel`).
    public func redact(_ image: Image) throws -> RedactedFrame {
        let kinds = configuration.kinds
        var sightings: [RedactionSighting] = []
        if kinds.contains(.face) {
            sightings += try configuration.faceRequest(tiled: true).performSynchronously(on: image).map { face in
                RedactionSighting(kind: .face, shape: RedactionShape.ellipse(face.pixelBox).padded(by: configuration.padding(for: .face)))
            }
        }
        if kinds.contains(.barcode) {
            sightings += try DetectBarcodesRequest(effort: .balanced).performSynchronously(on: image).map { code in
                RedactionSighting(
                    kind: .barcode,
                    shape: RedactionShape.polygon(code.pixelCorners.corners).padded(by: configuration.padding(for: .barcode)))
            }
        }
        if kinds.contains(.text) {
            sightings += try configuration.textRequest.performSynchronously(on: image).map { line in
                RedactionSighting(
                    kind: .text, shape: RedactionShape.polygon(line.pixelCorners.corners).padded(by: configuration.padding(for: .text)))
            }
        }
        if kinds.contains(.person) {
            var request = DetectHumanBodyPoseRequest(maximumPeople: 8)
            request.modelStore = configuration.modelStore
            sightings += try request.performSynchronously(on: image).map { body in
                RedactionSighting(
                    kind: .person, shape: Self.personShape(body.pixelBoundingBox, padding: configuration.padding(for: .person)))
            }
        }
        var regions: [RedactionRegion] = []
        for (index, sighting) in sightings.enumerated() {
            regions.append(RedactionRegion(kind: sighting.kind, trackID: index + 1, shape: sighting.shape, source: .detected))
        }
        let painter = RedactionPainter(style: configuration.style)
        guard kinds.contains(.person) else {
            return RedactedFrame(pixelBuffer: painter.paint(regions, on: image.pixelBuffer), time: 0, index: 0, regions: regions)
        }
        var request = GeneratePersonSegmentationRequest(qualityLevel: .accurate, maskSize: .image)
        request.modelStore = configuration.modelStore
        let coverage = PersonCoverage(
            mask: try request.performSynchronously(on: image), frameWidth: image.width, frameHeight: image.height, rotation: 0)
        return RedactedFrame(
            pixelBuffer: painter.paint(regions, on: image.pixelBuffer, covered: coverage?.contains, coveredBounds: coverage?.bounds),
            time: 0, index: 0, regions: regions, personBounds: coverage?.bounds)
    }
}
