import ArgumentParser
import Foundation
import Kamera

/// Times the people requests end to end on each photo (decoded once; the median of several
/// runs after a warm-up) and prints one JSON line per photo: the times, the first body's 33
/// landmarks in pixels, the hands' wrists, and the general model's person mask at the photo's
/// size (written as a PGM beside the output for the peer to compare). With `--every-body`, only
/// the body poses, every person's; with `--every-hand`, only the hands, up to four, every joint.
struct PeopleCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "people", abstract: "Time body pose, hands and person masks on photos.")

    @Option(help: "Runs per request and photo (after one warm-up).")
    var runs = 5

    @Option(help: "Directory for the masks (PGM).")
    var masks: String?

    @Flag(help: "Only body poses, every person's (up to 8): the harder people set's run (no masks, no hands).")
    var everyBody = false

    @Flag(help: "Only hands, up to four, every joint: the hand set's run (no masks, no bodies).")
    var everyHand = false

    @Argument(help: "Photos.")
    var photos: [String]

    func validate() throws {
        guard everyBody || everyHand || masks != nil else { throw ValidationError("--masks is needed unless --every-body or --every-hand") }
        guard !(everyBody && everyHand) else { throw ValidationError("--every-body and --every-hand are two runs") }
    }

    func run() throws {
        if let masks { try FileManager.default.createDirectory(atPath: masks, withIntermediateDirectories: true) }
        for path in photos {
            let image = try Image(contentsOf: URL(fileURLWithPath: path))
            func timed<T>(_ body: () throws -> T) throws -> (T, Double) {
                var result = try body()
                var times: [Double] = []
                for _ in 0..<runs {
                    let start = DispatchTime.now().uptimeNanoseconds
                    result = try body()
                    times.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
                }
                return (result, times.sorted()[times.count / 2])
            }
            // The sets' runs: every body's or hand's points in pixels ("found") and the time ("ms").
            if everyBody || everyHand {
                let (found, ms): ([[[Double]]], Double)
                if everyBody {
                    let (poses, poseMs) = try timed { try DetectHumanBodyPoseRequest().perform(in: ImageAnalysisContext(image)) }
                    (found, ms) = (poses.map { $0.landmarks.map { [$0.pixelLocation.x, $0.pixelLocation.y] } }, poseMs)
                } else {
                    let (hands, handMs) = try timed {
                        try DetectHumanHandPoseRequest(maximumHandCount: 4).perform(in: ImageAnalysisContext(image))
                    }
                    (found, ms) = (hands.map { $0.pixelLocations.map { [$0.x, $0.y] } }, handMs)
                }
                let record: [String: Any] = ["file": path, "ms": ms, "found": found]
                print(String(decoding: try JSONSerialization.data(withJSONObject: record, options: [.sortedKeys]), as: UTF8.self))
                continue
            }
            guard let masks else { continue }
            let (poses, poseMs) = try timed { try DetectHumanBodyPoseRequest(maximumPeople: 1).perform(in: ImageAnalysisContext(image)) }
            let (hands, handMs) = try timed { try DetectHumanHandPoseRequest().perform(in: ImageAnalysisContext(image)) }
            // MediaPipe Hands' pipeline: the palm detector alone, no body pose leading to the
            // hands it is too coarse for.
            var palmsOnly = DetectHumanHandPoseRequest()
            palmsOnly.inputBodyObservations = []
            let (palmHands, palmMs) = try timed { try palmsOnly.perform(in: ImageAnalysisContext(image)) }
            let (mask, maskMs) = try timed {
                try GeneratePersonSegmentationRequest(qualityLevel: .balanced, maskSize: .image).perform(in: ImageAnalysisContext(image))
            }
            let name = URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
            let maskPath = URL(fileURLWithPath: masks).appendingPathComponent("\(name).pgm").path
            var pgm = Data("P5\n\(mask.width) \(mask.height)\n255\n".utf8)
            pgm.append(contentsOf: mask.pixelBuffer.bytes)
            try pgm.write(to: URL(fileURLWithPath: maskPath))
            let landmarks = poses.first?.landmarks.map { [$0.pixelLocation.x, $0.pixelLocation.y] } ?? []
            let wrists = hands.map { [$0.pixelLocations[0].x, $0.pixelLocations[0].y] }
            let record: [String: Any] = [
                "file": path, "poseMs": poseMs, "handsMs": handMs, "maskMs": maskMs, "landmarks": landmarks, "wrists": wrists,
                "mask": maskPath, "palmsOnlyMs": palmMs, "palmsOnlyHands": palmHands.count,
            ]
            print(String(decoding: try JSONSerialization.data(withJSONObject: record, options: [.sortedKeys]), as: UTF8.self))
        }
    }
}
