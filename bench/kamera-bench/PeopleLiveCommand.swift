import ArgumentParser
import Foundation
import Kamera

/// Streams the same frames through `LiveScanner` twice, one thread for the people: following
/// one body (MediaPipe Pose's streaming job), then the person mask with the background blurred
/// (a video call's job). Prints one JSON object: frames a second for each, and the followed
/// body's 33 landmarks per frame (pixels) for the agreement with MediaPipe.
struct PeopleLiveCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "people-live", abstract: "Frames a second following a body, and with the background blurred.")

    @Option(help: "Stream frame rate (the frames' times).")
    var fps = 30.0

    @Argument(help: "Frames, in order (all the same size).")
    var frames: [String]

    func run() throws {
        let pictures = try frames.map { try Image(contentsOf: URL(fileURLWithPath: $0)).pixelBuffer.converted(to: .rgb8) }
        guard let first = pictures.first else { throw ValidationError("no frames") }
        func stream(_ configuration: LiveScanner.Configuration, each: (FrameScan, PixelBuffer) throws -> Void) throws -> Double {
            // A warm-up stream of a few frames first: models loaded, memory touched.
            let warm = try LiveScanner(configuration: configuration)
            for i in 0..<3 { try each(try warm.scan(first, at: Double(i) / fps), first) }
            let scanner = try LiveScanner(configuration: configuration)
            let start = DispatchTime.now().uptimeNanoseconds
            for (i, picture) in pictures.enumerated() { try each(try scanner.scan(picture, at: Double(i) / fps), picture) }
            return Double(pictures.count) / (Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
        }
        var body = DetectHumanBodyPoseRequest(maximumPeople: 1)
        body.minimumConfidence = 0.5
        var landmarks: [[[Double]]] = []
        let bodyFps = try stream(LiveScanner.Configuration(faceDetection: nil, barcodes: nil, bodies: body)) { scan, _ in
            landmarks.append(scan.bodies.first?.observation.landmarks.map { [$0.pixelLocation.x, $0.pixelLocation.y] } ?? [])
        }
        landmarks = Array(landmarks.dropFirst(3))
        let radius = 0.04 * Double(min(first.width, first.height))
        let blurFps = try stream(
            LiveScanner.Configuration(
                faceDetection: nil, barcodes: nil,
                personSegmentation: GeneratePersonSegmentationRequest(qualityLevel: .fast, maskSize: .model))
        ) { scan, picture in
            guard let mask = scan.personMask else { throw ValidationError("no mask") }
            _ = try mask.applying(.blur(radius: radius), to: picture)
        }
        let record: [String: Any] = [
            "frames": pictures.count, "width": first.width, "height": first.height, "bodyFps": bodyFps, "blurFps": blurFps,
            "blurRadius": radius, "landmarks": landmarks,
        ]
        print(String(decoding: try JSONSerialization.data(withJSONObject: record, options: [.sortedKeys]), as: UTF8.self))
    }
}
