// The README's "Library" snippets and the DocC articles' (DocSnippets.swift), run on real media: a photo with codes, a photo with a face,
// a page of text, a movie with faces. Usage: PortedFromiOS CODES.jpg FACE.png PAGE.png MOVIE OUTDIR
// Exit 0 when every step found what the media holds; 1 with the failing step otherwise.
import Foundation
import Kamera

let arguments = CommandLine.arguments.dropFirst().map { URL(fileURLWithPath: $0) }
guard arguments.count == 5 else {
    FileHandle.standardError.write(Data("usage: PortedFromiOS CODES.jpg FACE.png PAGE.png MOVIE OUTDIR\n".utf8))
    exit(64)
}
let (shelf, portrait, page, talk, out) = (arguments[0], arguments[1], arguments[2], arguments[3], arguments[4])
nonisolated(unsafe) var failures: [String] = []  // top-level code runs on one thread
func check(_ condition: Bool, _ what: String) {
    print(condition ? "ok    \(what)" : "FAIL  \(what)")
    if !condition { failures.append(what) }
}

// Codes (VNDetectBarcodesRequest → DetectBarcodesRequest).
let image = try Image(contentsOf: shelf)  // EXIF orientation applied
let codes = try await DetectBarcodesRequest(
    symbologies: [.qr, .ean13, .code128, .aztec, .dataMatrix, .pdf417],
    effort: .thorough
).perform(on: image)
for code in codes {
    print(code.symbology, code.payloadString ?? "\(code.payloadData.count) bytes")
    print(code.boundingBox)  // NormalizedRect, lower-left origin (Vision)
    print(code.topLeft, code.bottomRight)  // NormalizedPoint corners
    print(code.pixelCorners.corners)  // pixels, top-left origin
}
check(!codes.isEmpty, "codes read from \(shelf.lastPathComponent): \(codes.count)")

// Several requests on one image share its decoded and grayscale buffers.
let handler = ImageRequestHandler(image)
let (matrix, retail) = try await handler.perform(
    DetectBarcodesRequest(symbologies: [.qr, .dataMatrix]),
    DetectBarcodesRequest(symbologies: [.ean13, .upca]))
check(
    matrix.allSatisfy { [.qr, .dataMatrix].contains($0.symbology) } && retail.allSatisfy { [.ean13, .upca].contains($0.symbology) },
    "one handler, two requests: \(matrix.count) matrix, \(retail.count) retail")

// Generation: black on white gray8 pixels with a quiet zone, at a module size.
let qr = try BarcodeGenerator(symbology: .qr, moduleSize: 8, errorCorrection: .high).generate(text: "hello")
try ImageEncoder.write(qr, to: out.appendingPathComponent("hello.png"))
let reread = try await DetectBarcodesRequest(symbologies: [.qr]).perform(on: try Image(contentsOf: out.appendingPathComponent("hello.png")))
check(reread.first?.payloadString == "hello", "generated QR reads back")

// Video: frames with timestamps; a crash-safe recording with limits; thumbnails.
let reader = try MovieReader(path: talk.path)  // .rotation, .duration, .frameRate
var frames = 0
while let frame = try reader.nextFrame(), frames < 30 { _ = frame.time; _ = frame.pixelBuffer; frames += 1 }
check(frames == 30, "movie frames read: \(frames)")
let recorder = try MovieRecorder(
    url: out.appendingPathComponent("pattern.mp4"),
    settings: RecordingSettings(width: 1280, height: 720, maximumDuration: 60))
let pattern = TestPatternSource(width: 1280, height: 720)
for i in 0..<90 { try recorder.append(pattern.frame(i).pixelBuffer, at: Double(i) / 30) }
let summary = try recorder.finish()  // path, duration, frames, bytes, stopReason
let thumb = try ThumbnailGenerator(maximumSize: Size(width: 100, height: 0)).image(forVideoAt: summary.path)
check(summary.frames == 90 && thumb.width == 100, "recorded \(summary.frames) frames, thumbnail \(thumb.width)×\(thumb.height)")

// Text (VNRecognizeTextRequest → RecognizeTextRequest): lines in reading order, with words.
let document = try Image(contentsOf: page)
let lines = try await RecognizeTextRequest(recognitionLevel: .accurate, recognitionLanguages: ["en-US"]).perform(on: document)
for line in lines { print(line.string, line.confidence, line.boundingBox, line.words.map(\.string)) }
let regions = try await DetectTextRectanglesRequest(reportCharacterBoxes: true).perform(on: document)
check(lines.contains { $0.string.contains("computer vision") } && !regions.isEmpty, "text: \(lines.count) lines, \(regions.count) regions")

// Faces (VNDetectFaceLandmarksRequest): boxes, confidence, angles; Vision's landmark regions.
let person = try Image(contentsOf: portrait)
let faces = try await DetectFaceLandmarksRequest().perform(on: person)
for face in faces {
    print(face.boundingBox, face.confidence, face.roll.converted(to: .degrees), face.yaw, face.pitch)
    print(
        face.landmarks?.leftPupil.pointsInImageCoordinates(person.size, origin: .upperLeft) ?? [],
        face.landmarks?.meshPoints.count ?? 0)
}
let small = try await DetectFaceRectanglesRequest(minimumFaceSize: 20).perform(on: person)  // tiles big photos
var quick = DetectFaceRectanglesRequest(scansTiles: false)  // whole image only: faces above ~1/20 of it
quick.refinesFaces = false  // no closer look per face: MediaPipe's full-range pipeline, 0.76× its time
quick.detectorRange = .short  // faces filling the frame (selfies, calls), as MediaPipe's Face Mesh finds them
let closeUps = try await quick.perform(on: person)
check(
    faces.count == 1 && faces[0].landmarks != nil && small.count == 1 && closeUps.count == 1,
    "faces: \(faces.count) with landmarks, \(small.count) tiled, \(closeUps.count) short range")

// Streams (VNSequenceRequestHandler): stable face IDs, codes keyed by content, events.
let stream = try MovieReader(path: talk.path)
let scanner = try LiveScanner(configuration: .init(frameBudget: 1.0 / 30))
var faceIDs = Set<Int>()
var scanned = 0
while let frame = try stream.nextFrame(), scanned < 60 {
    let scan = try scanner.scan(frame.pixelBuffer, at: frame.time)
    for face in scan.faces { faceIDs.insert(face.faceID) }
    for event in scan.events { print(event.type, event.kind, event.id) }
    scanned += 1
}
check(!faceIDs.isEmpty, "live scan: face IDs \(faceIDs.sorted())")

// Geometry (VNDetectRectanglesRequest, VNDetectDocumentSegmentationRequest, registration,
// VNTrackObjectRequest). The page pasted at an angle onto the portrait: a document to find.
var desk = person.pixelBuffer.converted(to: .rgb8)
let sheet = Quad(
    topLeft: PixelPoint(x: 120, y: 70), topRight: PixelPoint(x: 400, y: 100), bottomRight: PixelPoint(x: 380, y: 440),
    bottomLeft: PixelPoint(x: 90, y: 410))
desk.composite(document.pixelBuffer.converted(to: .rgb8), onto: sheet)
let found = try await DetectDocumentSegmentationRequest().perform(on: desk)
let corner = found.first.map { zip($0.pixelCorners.corners, sheet.corners).map { $0.distance(to: $1) }.max()! } ?? .infinity
if let page = found.first {
    let flat = try desk.perspectiveCorrected(to: page.pixelCorners, whitensPaper: true)
    try ImageEncoder.write(flat, to: out.appendingPathComponent("page.png"))
}
let rectangles = try await DetectRectanglesRequest().perform(on: desk)  // topLeft…, boundingBox, confidence
let contours = try await DetectContoursRequest().perform(on: document)  // a tree; polygonApproximation(epsilon:)
check(corner < 4 && !rectangles.isEmpty && contours.contourCount > 10, "document within \(corner) px, \(contours.contourCount) contours")
// Registration: two overlapping crops of one photo, 40 px and 30 px apart.
let (w, h) = (Double(image.width) - 40, Double(image.height) - 30)
let left = image.pixelBuffer.cropped(to: PixelRect(x: 0, y: 0, width: w, height: h))
let right = image.pixelBuffer.cropped(to: PixelRect(x: 40, y: 30, width: w, height: h))
let shift = try await TranslationalImageRegistrationRequest(targetedImage: Image(pixelBuffer: right)).perform(on: left)
let warp = try await HomographicImageRegistrationRequest(targetedImage: Image(pixelBuffer: right)).perform(on: left).warpTransform
let moved = warp.apply(PixelPoint(x: 100, y: 100))
check(
    abs(shift.alignmentTransform.x - 40) < 0.5 && abs(shift.alignmentTransform.y - 30) < 0.5 && abs(moved.x - 140) < 1
        && abs(moved.y - 130) < 1, "registration: shift \(shift.alignmentTransform), warp moves (100, 100) to \(moved)")
// Tracking: the face found on the movie's first frame, followed through the next 40 frames.
let clip = try MovieReader(path: talk.path)
var follow: TrackObjectRequest?
var followedFrames = 0
while let frame = try clip.nextFrame(), frame.index <= 40 {
    if follow == nil, let face = try await DetectFaceRectanglesRequest().perform(on: frame.pixelBuffer).first {
        follow = TrackObjectRequest(
            detectedObject: DetectedObjectObservation(pixelBox: face.pixelBox, imageSize: frame.pixelBuffer.size))
    }
    if let follow, try await follow.perform(on: frame.pixelBuffer).confidence >= 0.45 { followedFrames += 1 }
}
check(followedFrames >= 35, "tracking: the face followed in \(followedFrames) of 41 frames")

// The inference runtime on its own: any .tflite built from the supported ops.
let network = try NeuralNetwork(contentsOf: try ModelStore.default.path(of: .faceLandmark))
let session = network.makeSession(threads: 1)
session.withInput { input in for i in input.indices { input[i] = 0.5 } }
session.invoke()
let mesh = session.output(0)
check(mesh.count == 1404, "Face Mesh by hand: \(mesh.count) outputs")

// Overlays as the seeds draw them.
var canvas = Canvas(image.pixelBuffer)
BarcodeOverlay().draw(codes, on: &canvas, font: try FontFace.standard())
FaceOverlay().draw(faces, on: &canvas)
try ImageEncoder.write(canvas.buffer, to: out.appendingPathComponent("annotated.png"))

// The DocC articles' snippets (generated from Sources/Kamera/Kamera.docc by scripts/consumer.sh),
// each on the media its article is about.
let inputs = ["codes": shelf, "face": portrait, "page": page, "movie": talk]
for snippet in docSnippets {
    do {
        try await snippet.run(inputs[snippet.input]!, out)
        check(true, "docs: \(snippet.name)")
    } catch {
        check(false, "docs: \(snippet.name): \(error)")
    }
}

if failures.isEmpty { print("all snippets ran") } else { print("\(failures.count) failed"); exit(1) }
