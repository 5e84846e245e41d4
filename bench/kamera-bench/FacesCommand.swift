import ArgumentParser
import Foundation
import Kamera
import KameraTestMedia

/// Writes the face benchmark images with ground truth (face-dataset) and runs Kamera on them
/// (faces), printing JSON the report compares with the peers'.
struct FaceDatasetCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "face-dataset", abstract: "Write the face benchmark images.")

    @Argument(help: "Output directory.")
    var output: String

    @Option(help: "Random seed of the pasted faces (another seed gives a held-out set).")
    var seed: UInt64 = 2026

    @Option(help: "How many 2000×1400 photos with six small faces.")
    var smallPhotos = 6

    struct Face: Codable {
        var cx: Double, cy: Double, side: Double, roll: Double
        /// Row-major homography from the source head image to the scene.
        var transform: [Double]
    }

    struct Entry: Codable {
        var file: String
        var kind: String
        var faces: [Face]?
    }

    func run() throws {
        let directory = URL(fileURLWithPath: output)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        var entries: [Entry] = []
        for (name, _) in SampleMedia.facePhotos {
            guard let url = try? SampleMedia.url(name) else { continue }
            let image = try Image(contentsOf: url)
            try ImageEncoder.write(
                image.pixelBuffer, to: directory.appendingPathComponent("real_" + name.split(separator: ".")[0] + ".png"))
            entries.append(Entry(file: "real_" + name.split(separator: ".")[0] + ".png", kind: "real"))
        }
        let head = try FaceScene.astronautHead()
        try ImageEncoder.write(head.image, to: directory.appendingPathComponent("head.png"))
        var random = SeededRandom(seed: seed)
        let backgrounds = SampleMedia.availableBackgrounds().filter { $0 != "messi5.jpg" && $0 != "lena.jpg" }
        func record(_ scene: FaceScene, _ file: String, _ kind: String) throws {
            try ImageEncoder.write(scene.image, to: directory.appendingPathComponent(file))
            entries.append(
                Entry(
                    file: file, kind: kind,
                    faces: scene.faces.map {
                        Face(cx: $0.center.x, cy: $0.center.y, side: $0.faceSide, roll: $0.roll, transform: $0.transform.m)
                    }))
        }
        // Scenes: one to four faces, 70–320 px, turned up to ±35°.
        for i in 0..<24 {
            var scene = try FaceScene(background: backgrounds[i % backgrounds.count], width: 1280, height: 960)
            let count = 1 + i % 4
            for k in 0..<count {
                let side = 70 + Double.random(in: 0..<1, using: &random) * 250
                let x = 160 + Double(k % 2) * 640 + Double.random(in: 0..<1, using: &random) * 300
                let y = 170 + Double(k / 2) * 470 + Double.random(in: 0..<1, using: &random) * 150
                scene.place(
                    head, faceCenter: PixelPoint(x: x, y: y), faceSide: side, degrees: Double.random(in: 0..<1, using: &random) * 70 - 35)
            }
            try record(scene, "scene_\(i).png", "scene")
        }
        // Small faces: 2000 px photos with six faces of 20–40 px.
        for i in 0..<smallPhotos {
            var scene = try FaceScene(background: backgrounds[(i + 3) % backgrounds.count], width: 2000, height: 1400)
            for k in 0..<6 {
                let x = 200 + Double(k % 3) * 650 + Double.random(in: 0..<1, using: &random) * 300
                let y = 250 + Double(k / 3) * 650 + Double.random(in: 0..<1, using: &random) * 300
                scene.place(
                    head, faceCenter: PixelPoint(x: x, y: y), faceSide: 20 + Double.random(in: 0..<1, using: &random) * 20,
                    degrees: Double.random(in: 0..<1, using: &random) * 20 - 10)
            }
            try record(scene, "small_\(i).png", "small")
        }
        // Negatives.
        for name in ["fruits.jpg", "baboon.jpg", "home.jpg", "board.jpg"] where (try? SampleMedia.url(name)) != nil {
            let file = "none_" + name.split(separator: ".")[0] + ".png"
            try ImageEncoder.write(try SampleMedia.photo(name).pixelBuffer, to: directory.appendingPathComponent(file))
            entries.append(Entry(file: file, kind: "none", faces: []))
        }
        try JSONEncoder().encode(entries).write(to: directory.appendingPathComponent("truth.json"))
        print("wrote \(entries.count) images to \(directory.path)")
    }
}

/// Runs Kamera on every image (one thread): faces, their keypoints and mesh, and times.
struct FacesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "faces", abstract: "Detect faces and landmarks in the dataset.")

    @Argument(help: "Dataset directory.")
    var directory: String

    @Option(help: "Timed runs per image (median reported).")
    var runs = 3

    @Flag(help: "Only the tiled default, one thread and all cores (for tuning the tile scan; the report needs all).")
    var tiledOnly = false

    func run() throws {
        let entries = try JSONDecoder().decode(
            [FaceDatasetCommand.Entry].self,
            from: Data(contentsOf: URL(fileURLWithPath: directory).appendingPathComponent("truth.json")))
        let detect = DetectFaceRectanglesRequest(maximumThreads: 1)
        var lines: [String] = []
        for entry in entries + [FaceDatasetCommand.Entry(file: "head.png", kind: "head")] {
            let image = try Image(contentsOf: URL(fileURLWithPath: directory).appendingPathComponent(entry.file))
            func median(_ body: () throws -> Void) rethrows -> Double {
                var times: [Double] = []
                for _ in 0..<runs {
                    let start = DispatchTime.now().uptimeNanoseconds
                    try body()
                    times.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
                }
                return times.sorted()[times.count / 2]
            }
            // Fresh context per run: decoding is outside the timing, RGB conversion inside.
            func record(_ faces: [FaceObservation]) -> String {
                faces.map { face -> String in
                    let b = face.pixelBox
                    let keypoints = face.keypoints.map { "[\($0.x),\($0.y)]" }.joined(separator: ",")
                    let mesh = (face.landmarks?.meshPoints ?? []).map { "[\($0.x),\($0.y)]" }.joined(separator: ",")
                    return
                        #"{"box":[\#(b.x),\#(b.y),\#(b.width),\#(b.height)],"score":\#(face.confidence),"keypoints":[\#(keypoints)],"mesh":[\#(mesh)]}"#
                }.joined(separator: ",")
            }
            var tiled: [FaceObservation] = [], whole: [FaceObservation] = [], landmarks: [FaceObservation] = []
            let tiledMs = try median { tiled = try detect.perform(in: ImageAnalysisContext(image)) }
            if tiledOnly {
                var tiledAll = detect
                tiledAll.maximumThreads = nil
                let tiledAllMs = try median { _ = try tiledAll.perform(in: ImageAnalysisContext(image)) }
                lines.append(
                    #"{"file":"\#(entry.file)","allCores":{"tiled":\#(tiledAllMs)},"tiled":{"ms":\#(tiledMs),"faces":[\#(record(tiled))]}}"#
                )
                continue
            }
            var quick = detect
            quick.scansTiles = false
            let wholeMs = try median { whole = try quick.perform(in: ImageAnalysisContext(image)) }
            // MediaPipe's own pipeline on Kamera's input sampling: the full-range model's
            // boxes and keypoints as they come, no closer look at each face.
            var unrefined = quick
            unrefined.refinesFaces = false
            var wholeUnrefined: [FaceObservation] = []
            let unrefinedMs = try median { wholeUnrefined = try unrefined.perform(in: ImageAnalysisContext(image)) }
            let landmarksMs = try median {
                landmarks = try DetectFaceLandmarksRequest(faceDetection: quick).perform(in: ImageAnalysisContext(image))
            }
            // The fast configuration does what MediaPipe's Face Mesh does: the short-range
            // detector as is, one mesh pass per face, pupils from the mesh.
            var fastDetect = quick
            fastDetect.refinesFaces = false
            fastDetect.detectorRange = .short
            let fast = DetectFaceLandmarksRequest(faceDetection: fastDetect, usesIrisModel: false, refinesMesh: false)
            var fastLandmarks: [FaceObservation] = []
            let fastMs = try median { fastLandmarks = try fast.perform(in: ImageAnalysisContext(image)) }
            // The same requests with their default threads (every core), as `kamera detect` and a
            // library caller get them: tiles, refinement looks and mesh runs spread over the cores.
            var tiledAll = detect, quickAll = quick, fastAll = fast
            tiledAll.maximumThreads = nil
            quickAll.maximumThreads = nil
            fastAll.faceDetection.maximumThreads = nil
            let tiledAllMs = try median { _ = try tiledAll.perform(in: ImageAnalysisContext(image)) }
            let wholeAllMs = try median { _ = try quickAll.perform(in: ImageAnalysisContext(image)) }
            let fastAllMs = try median { _ = try fastAll.perform(in: ImageAnalysisContext(image)) }
            lines.append(
                #"{"file":"\#(entry.file)","allCores":{"tiled":\#(tiledAllMs),"whole":\#(wholeAllMs),"fast":\#(fastAllMs)},"#
                    + #""tiled":{"ms":\#(tiledMs),"faces":[\#(record(tiled))]},"#
                    + #""whole":{"ms":\#(wholeMs),"faces":[\#(record(whole))]},"#
                    + #""unrefined":{"ms":\#(unrefinedMs),"faces":[\#(record(wholeUnrefined))]},"landmarks":{"ms":\#(landmarksMs),"faces":[\#(record(landmarks))]},"#
                    + #""fast":{"ms":\#(fastMs),"faces":[\#(record(fastLandmarks))]}}"#)
        }
        print("[" + lines.joined(separator: ",\n") + "]")
    }
}
