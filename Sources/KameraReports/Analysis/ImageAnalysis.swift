import Foundation
import Kamera

/// The requests for one image and running them: the analysis behind `kamera detect` and the
/// server's `POST /v1/detect`, so both report the same JSON. Made by
/// `AnalysisOptions.imageAnalysis()`.
package struct ImageAnalysis: Sendable {
    package struct FaceAnalysis: Sendable {
        package var detection: DetectFaceRectanglesRequest
        package var landmarks: Bool
        /// Face Mesh's own pipeline for the landmarks: one mesh pass, pupils from the mesh (no Iris).
        package var fastLandmarks: Bool

        package init(detection: DetectFaceRectanglesRequest, landmarks: Bool, fastLandmarks: Bool = false) {
            self.detection = detection
            self.landmarks = landmarks
            self.fastLandmarks = fastLandmarks
        }
    }

    package struct TextAnalysis: Sendable {
        package var recognize: Bool
        package var languages: [String]
        package var regionOfInterest: NormalizedRect
        package var engine: RecognizeTextRequest.Engine

        package init(
            recognize: Bool, languages: [String], regionOfInterest: NormalizedRect = .fullImage,
            engine: RecognizeTextRequest.Engine = .automatic
        ) {
            self.engine = engine
            self.recognize = recognize
            self.languages = languages
            self.regionOfInterest = regionOfInterest
        }
    }

    /// What was found, as observations, for drawing.
    package struct Findings: Sendable {
        package var codes: [BarcodeObservation] = []
        package var faces: [FaceObservation] = []
        package var lines: [TextObservation] = []
        package var rectangles: [RectangleObservation] = []
        package var personMask: PersonSegmentationObservation?
        package var bodies: [HumanBodyPoseObservation] = []
        package var hands: [HumanHandPoseObservation] = []

        /// `image` with the findings drawn on it (the CLI's `--annotate` picture).
        package func drawn(on image: PixelBuffer) throws -> PixelBuffer {
            var canvas = Canvas(image.format == .rgb8 ? image : image.converted(to: .rgb8))
            if let personMask { PersonMaskOverlay().draw(personMask, on: &canvas) }
            RectangleOverlay().draw(rectangles, on: &canvas)
            BodyPoseOverlay().draw(bodies, on: &canvas)
            HandPoseOverlay().draw(hands, on: &canvas)
            FaceOverlay().draw(faces, on: &canvas)
            TextOverlay().draw(lines, on: &canvas)
            BarcodeOverlay().draw(codes, on: &canvas, font: try FontFace.standard())
            return canvas.buffer
        }
    }

    package var barcodes: DetectBarcodesRequest?
    package var faces: FaceAnalysis?
    package var text: TextAnalysis?
    package var rectangles: DetectRectanglesRequest?
    package var personMask: GeneratePersonSegmentationRequest?
    package var bodies: DetectHumanBodyPoseRequest?
    package var bodies3D: DetectHumanBodyPose3DRequest?
    package var hands: DetectHumanHandPoseRequest?

    package init(
        barcodes: DetectBarcodesRequest? = nil, faces: FaceAnalysis? = nil, text: TextAnalysis? = nil,
        rectangles: DetectRectanglesRequest? = nil, personMask: GeneratePersonSegmentationRequest? = nil,
        bodies: DetectHumanBodyPoseRequest? = nil, bodies3D: DetectHumanBodyPose3DRequest? = nil,
        hands: DetectHumanHandPoseRequest? = nil
    ) {
        (self.barcodes, self.faces, self.text, self.rectangles) = (barcodes, faces, text, rectangles)
        (self.personMask, self.bodies, self.bodies3D, self.hands) = (personMask, bodies, bodies3D, hands)
    }

    /// Bytes a pixel the analysis holds besides the decoded image's own, for the server's memory
    /// budget: the requests' gray and sampling planes (4), and a person mask at the image's
    /// size with its guided filter's coefficients (16 more).
    package var workingBytesPerPixel: Int {
        let fullSizeMask = personMask.map { ($0.maskSize ?? ($0.qualityLevel == .accurate ? .image : .model)) == .image } ?? false
        return fullSizeMask ? 20 : 4
    }

    /// Whether a request needs the image's colours (the face and person models); the others
    /// read gray levels, which a decoder can produce for less.
    package var needsColour: Bool { faces != nil || personMask != nil || bodies != nil || bodies3D != nil || hands != nil }

    /// Runs every request asked for on `image` (sharing one analysis context), fills `result`'s
    /// size, warning and findings, and returns the observations.
    package func analyse(_ image: Image, into result: inout DetectionReport.FileResult) throws -> Findings {
        result.width = image.width
        result.height = image.height
        result.warning = image.damage
        let context = ImageAnalysisContext(image)
        var findings = Findings()
        if let request = barcodes {
            findings.codes = try request.perform(in: context)
            result.barcodes = findings.codes.map(BarcodeRecord.init)
        }
        if let request = faces {
            findings.faces =
                request.landmarks
                ? try DetectFaceLandmarksRequest(
                    faceDetection: request.detection, usesIrisModel: !request.fastLandmarks, refinesMesh: !request.fastLandmarks
                ).perform(in: context)
                : try request.detection.perform(in: context)
            result.faces = findings.faces.map(FaceRecord.init)
        }
        if let text {
            var request = RecognizeTextRequest(recognitionLanguages: text.languages)
            request.regionOfInterest = text.regionOfInterest
            request.engine = text.engine
            // The scene reader finds and reads lines in one pass: text alone runs it too.
            if text.recognize || text.engine == .scene || (text.engine == .automatic && request.sceneReadsLanguages) {
                let recognized = try request.perform(in: context)
                // Finding text without reading it reports characters per line, as the layout pass does.
                findings.lines = recognized.map { $0.textObservation(lineCharacterBoxes: !text.recognize) }
                result.text = text.recognize ? recognized.map(TextRecord.init) : findings.lines.map(TextRecord.init)
            } else {
                var request = DetectTextRectanglesRequest(reportCharacterBoxes: true, languages: text.languages)
                request.engine = .tesseract
                request.regionOfInterest = text.regionOfInterest
                findings.lines = try request.perform(in: context)
                result.text = findings.lines.map(TextRecord.init)
            }
        }
        if let request = rectangles {
            findings.rectangles = try request.perform(in: context)
            result.rectangles = findings.rectangles.map(RectangleRecord.init)
        }
        if let request = personMask {
            let mask = try request.perform(in: context)
            findings.personMask = mask
            result.personMask = PersonMaskRecord(mask, quality: request.qualityLevel)
        }
        // Bodies in the image and in metres asked for together: one run gives both when the
        // two requests ask for the same people.
        if let request = bodies, let world = bodies3D, world.flatRequest.asksForSamePeople(as: request) {
            let (flat, metric) = try request.posesInTwoAndThreeDimensions(in: context)
            findings.bodies = flat
            result.bodies = flat.map(BodyPoseRecord.init)
            result.bodies3D = metric.map(BodyPose3DRecord.init)
        } else {
            if let request = bodies {
                findings.bodies = try request.perform(in: context)
                result.bodies = findings.bodies.map(BodyPoseRecord.init)
            }
            if let request = bodies3D {
                result.bodies3D = try request.perform(in: context).map(BodyPose3DRecord.init)
            }
        }
        if var request = hands {
            // The bodies just found lead to the hands: the body pose runs once.
            if bodies != nil { request.inputBodyObservations = findings.bodies }
            findings.hands = try request.perform(in: context)
            result.hands = findings.hands.map(HandPoseRecord.init)
        }
        return findings
    }
}
