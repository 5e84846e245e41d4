import ArgumentParser
import Foundation
import Kamera
import KameraTestMedia

/// Writes the geometry benchmark: document/card/screen/sign scenes over real photos with
/// known corners (and scenes with nothing pasted), and registration pairs with known warps.
struct GeometryDatasetCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "geometry-dataset", abstract: "Write the rectangle, document and registration benchmark sets.")

    @Argument(help: "Output directory.")
    var output: String

    @Option(help: "Scenes with an object pasted.")
    var scenes = 48

    @Option(help: "Registration pairs of each kind (translational, homographic).")
    var pairs = 12

    @Option(help: "Kinds the object scenes cycle through (comma-separated: page, card, screen, sign, framedScreen).")
    var kinds = DocumentScene.Kind.original.map(\.rawValue).joined(separator: ",")

    /// The bench set starts at 0; a held-out set starts after it, so no tuning has seen it.
    @Option(help: "Index of the first scene (its seed is 1000 + index).")
    var firstIndex = 0

    struct Scene: Codable {
        var file: String
        var kind: String?
        /// topLeft, topRight, bottomRight, bottomLeft as [x, y], pixels.
        var corners: [[Double]]?
        var background: String
        var cutByFrame: Bool
        var lowContrast: Bool
    }

    struct Pair: Codable {
        var reference: String
        var moving: String
        var homographic: Bool
        /// Row-major 3×3: moving's pixels onto reference's.
        var truth: [Double]
    }

    static let registrationPhotos = [
        "graf1.png", "building.jpg", "board.jpg", "home.jpg", "fruits.jpg", "smarties.png",
        "baboon.jpg", "starry_night.jpg", "messi5.jpg", "box_in_scene.png", "aero1.jpg", "left01.jpg",
    ]

    func run() throws {
        let directory = URL(fileURLWithPath: output)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let backgrounds = SampleMedia.availableBackgrounds()
        let kindList = try kinds.split(separator: ",").map { name in
            guard let kind = DocumentScene.Kind(rawValue: String(name)) else { throw ValidationError("unknown kind \(name)") }
            return kind
        }
        guard !kindList.isEmpty else { throw ValidationError("--kinds is empty") }
        var written: [Scene] = []
        let negatives = max(4, scenes / 6)
        for i in firstIndex..<(firstIndex + scenes + negatives) {
            let kind = i < firstIndex + scenes ? kindList[i % kindList.count] : nil
            let cut = kind == .page && i % 8 == 4
            let low = kind != nil && i % 3 == 1
            let background = backgrounds[(i * 7 + 3) % backgrounds.count]
            let scene = try DocumentScene.make(
                kind: kind, background: background, seed: UInt64(1000 + i), cutByFrame: cut, lowContrast: low)
            let name = String(format: "scene_%03d.png", i)
            try ImageEncoder.write(scene.image, to: directory.appendingPathComponent(name))
            written.append(
                Scene(
                    file: name, kind: kind?.rawValue, corners: scene.corners?.corners.map { [$0.x, $0.y] },
                    background: background, cutByFrame: cut, lowContrast: low))
        }
        try JSONEncoder().encode(written).write(to: directory.appendingPathComponent("scenes.json"))
        var pairList: [Pair] = []
        for homographic in [false, true] {
            for i in 0..<pairs {
                let photo = Self.registrationPhotos[i % Self.registrationPhotos.count]
                let pair = try RegistrationPair.make(
                    photo: photo, seed: UInt64(2000 + i + (homographic ? 100 : 0)), homographic: homographic)
                let stem = String(format: "%@_%02d", homographic ? "homography" : "translation", i)
                try ImageEncoder.write(pair.reference, to: directory.appendingPathComponent(stem + "_a.png"))
                try ImageEncoder.write(pair.moving, to: directory.appendingPathComponent(stem + "_b.png"))
                pairList.append(Pair(reference: stem + "_a.png", moving: stem + "_b.png", homographic: homographic, truth: pair.truth.m))
            }
        }
        try JSONEncoder().encode(pairList).write(to: directory.appendingPathComponent("pairs.json"))
        print("wrote \(written.count) scenes and \(pairList.count) registration pairs to \(directory.path)")
    }
}

/// Runs Kamera's rectangle, document and registration requests on the geometry set: prints
/// JSON {scenes: [...], pairs: [...]} with corners, transforms and milliseconds (decoded
/// pixels in, as the peers are timed).
struct GeometryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "geometry", abstract: "Time Kamera on the geometry set.")

    @Argument(help: "Dataset directory.")
    var directory: String

    struct SceneResult: Codable {
        var file: String
        var rectangles: [[[Double]]]
        var rectangleMilliseconds: Double
        var document: [[Double]]?
        var documentMilliseconds: Double
    }

    struct PairResult: Codable {
        var reference: String
        var transform: [Double]
        var milliseconds: Double
    }

    struct Output: Codable {
        var scenes: [SceneResult]
        var pairs: [PairResult]
    }

    func run() throws {
        let base = URL(fileURLWithPath: directory)
        let scenes = try JSONDecoder().decode(
            [GeometryDatasetCommand.Scene].self, from: Data(contentsOf: base.appendingPathComponent("scenes.json")))
        let pairs = try JSONDecoder().decode(
            [GeometryDatasetCommand.Pair].self, from: Data(contentsOf: base.appendingPathComponent("pairs.json")))
        let clock = ContinuousClock()
        func milliseconds(_ d: Duration) -> Double { Double(d.components.attoseconds) / 1e15 + Double(d.components.seconds) * 1000 }
        func corners(_ q: Quad) -> [[Double]] { q.corners.map { [$0.x, $0.y] } }
        var sceneResults: [SceneResult] = []
        for scene in scenes {
            let image = try Image(contentsOf: base.appendingPathComponent(scene.file))
            var rectangles = DetectRectanglesRequest()
            rectangles.maximumObservations = 0
            var found: [RectangleObservation] = []
            // Each request on a fresh context: the grey conversion is part of its time.
            let rectangleTime = try clock.measure { found = try rectangles.performSynchronously(on: image) }
            var document: [RectangleObservation] = []
            let documentTime = try clock.measure { document = try DetectDocumentSegmentationRequest().performSynchronously(on: image) }
            sceneResults.append(
                SceneResult(
                    file: scene.file, rectangles: found.map { corners($0.pixelCorners) },
                    rectangleMilliseconds: milliseconds(rectangleTime), document: document.first.map { corners($0.pixelCorners) },
                    documentMilliseconds: milliseconds(documentTime)))
        }
        var pairResults: [PairResult] = []
        for pair in pairs {
            let reference = try Image(contentsOf: base.appendingPathComponent(pair.reference))
            let moving = try Image(contentsOf: base.appendingPathComponent(pair.moving))
            var transform = PerspectiveTransform.identity
            let time = try clock.measure {
                if pair.homographic {
                    transform = try HomographicImageRegistrationRequest(targetedImage: moving).performSynchronously(on: reference)
                        .warpTransform
                } else {
                    let shift = try TranslationalImageRegistrationRequest(targetedImage: moving).performSynchronously(on: reference)
                        .alignmentTransform
                    transform = PerspectiveTransform(matrix: [1, 0, shift.x, 0, 1, shift.y, 0, 0, 1])
                }
            }
            pairResults.append(PairResult(reference: pair.reference, transform: transform.m, milliseconds: milliseconds(time)))
        }
        let encoder = JSONEncoder()
        print(String(decoding: try encoder.encode(Output(scenes: sceneResults, pairs: pairResults)), as: UTF8.self))
    }
}
