import ArgumentParser
import Foundation
import Kamera
import KameraTestMedia

/// Writes the redaction benchmark: 720p clips of real faces (the astronaut and the
/// cameraman, hand-labelled) moving over real photos — crossing the frame from edge to edge,
/// coming closer while turning away (yaw, as a narrowing face), rolling, partly covered by an
/// object for a while, and far away — with every face's box and the covering object's box on
/// every frame (truth.json), for `bench/redaction.sh`.
struct RedactionDatasetCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "redaction-dataset", abstract: "Write the redaction benchmark clips.")

    @Argument(help: "Output directory.")
    var output: String

    @Option(help: "Random seed of the paths (another seed gives a held-out set).")
    var seed: UInt64 = 2026

    @Option(help: "How many clips.")
    var clips = 4

    @Option(help: "Seconds per clip.")
    var seconds = 6.0

    struct Box: Codable { var x, y, width, height: Double }
    struct Frame: Codable {
        var faces: [Box]
        /// What covers part of a face on this frame (those pixels are not a visible face).
        var occluders: [Box]
    }
    struct Clip: Codable {
        var file: String
        var width: Int, height: Int, frameRate: Double
        var frames: [Frame]
    }

    /// A head photo and its face's box in it (hand-labelled: brows to chin, ear to ear).
    private static func heads() throws -> [(image: PixelBuffer, face: PixelRect)] {
        [try FaceScene.astronautHead(), try FaceScene.cameramanHead()]
    }

    /// One face's path through a clip: where its centre is, its size, roll and yaw at time t.
    private struct Path {
        var head: Int
        var start: PixelPoint, end: PixelPoint
        var side: (Double, Double)
        var rollAmplitude: Double, rollPeriod: Double
        var yawPeak: Double
        var occluded: ClosedRange<Double>?

        func pose(_ t: Double) -> (center: PixelPoint, side: Double, roll: Double, yaw: Double) {
            let center = start + (end - start) * t
            let side = side.0 + (side.1 - side.0) * t
            return (center, side, rollAmplitude * sin(2 * .pi * t / rollPeriod), yawPeak * sin(.pi * t))
        }
    }

    func run() throws {
        let directory = URL(fileURLWithPath: output)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let heads = try Self.heads()
        let backgrounds = SampleMedia.availableBackgrounds().filter { $0 != "messi5.jpg" }
        var random = SeededRandom(seed: seed)
        func r(_ range: ClosedRange<Double>) -> Double {
            range.lowerBound + Double.random(in: 0..<1, using: &random) * (range.upperBound - range.lowerBound)
        }
        let (width, height, rate) = (1280, 720, 30.0)
        var written: [Clip] = []
        for index in 0..<clips {
            let background = try SampleMedia.photo(backgrounds[(index + Int(seed % 7)) % backgrounds.count]).pixelBuffer
            let occluderSource = try SampleMedia.photo("fruits.jpg").pixelBuffer.converted(to: .rgb8)
            // Crossing edge to edge; coming closer while turning; far away and small.
            let paths = [
                Path(
                    head: index % 2, start: PixelPoint(x: -120, y: r(200...520)), end: PixelPoint(x: 1400, y: r(200...520)),
                    side: (r(80...140), r(80...140)), rollAmplitude: r(0...30), rollPeriod: r(1.5...3), yawPeak: 0, occluded: nil),
                Path(
                    head: (index + 1) % 2, start: PixelPoint(x: r(300...980), y: r(250...450)),
                    end: PixelPoint(x: r(300...980), y: r(250...450)),
                    side: (r(40...60), r(180...260)), rollAmplitude: r(0...15), rollPeriod: 4, yawPeak: r(40...65),
                    occluded: {
                        let s = r(0.2...0.6); return s...(s + 0.2)
                    }()),
                Path(
                    head: index % 2, start: PixelPoint(x: r(100...1180), y: r(80...200)), end: PixelPoint(x: r(100...1180), y: r(80...200)),
                    side: (r(28...40), r(28...40)), rollAmplitude: 0, rollPeriod: 1, yawPeak: 0, occluded: nil),
            ]
            let file = "clip_\(index).mp4"
            let recorder = try MovieRecorder(
                url: directory.appendingPathComponent(file), settings: RecordingSettings(width: width, height: height, frameRate: rate))
            var frames: [Frame] = []
            let count = Int(seconds * rate)
            for i in 0..<count {
                let t = Double(i) / Double(count - 1)
                var composer = SceneComposer(background: background, width: width, height: height)
                var frame = Frame(faces: [], occluders: [])
                for path in paths {
                    let pose = path.pose(t)
                    let head = heads[path.head]
                    let quad = Self.quad(head.image, face: head.face, center: pose.center, side: pose.side, roll: pose.roll, yaw: pose.yaw)
                    composer.paste(head.image, onto: quad.image)
                    frame.faces.append(Box(x: quad.face.x, y: quad.face.y, width: quad.face.width, height: quad.face.height))
                    if let occluded = path.occluded, occluded.contains(t) {
                        // An object passing in front: the lower 55 % of the face hidden.
                        let box = PixelRect(
                            x: quad.face.x - 0.1 * quad.face.width, y: quad.face.y + 0.45 * quad.face.height,
                            width: quad.face.width * 1.2, height: quad.face.height * 0.75)
                        composer.paste(occluderSource.cropped(to: PixelRect(x: 100, y: 100, width: 200, height: 120)), onto: Quad(box))
                        frame.occluders.append(Box(x: box.x, y: box.y, width: box.width, height: box.height))
                    }
                }
                _ = try recorder.append(composer.canvas, at: Double(i) / rate)
                frames.append(frame)
            }
            _ = try recorder.finish()
            written.append(Clip(file: file, width: width, height: height, frameRate: rate, frames: frames))
            FileHandle.standardError.write(Data("redaction-dataset: \(file)\n".utf8))
        }
        let encoder = JSONEncoder()
        try encoder.encode(written).write(to: directory.appendingPathComponent("truth.json"))
    }

    /// Where the head photo goes: scaled so its face is `side` wide, narrowed by the yaw,
    /// turned by `roll` degrees, the face centred at `center`; and the face's box in the frame.
    private static func quad(
        _ image: PixelBuffer, face: PixelRect, center: PixelPoint, side: Double, roll: Double, yaw: Double
    ) -> (image: Quad, face: PixelRect) {
        let scale = side / face.width, narrowing = cos(yaw * .pi / 180)
        let angle = roll * .pi / 180
        let (c, s) = (cos(angle), sin(angle))
        func place(_ p: PixelPoint) -> PixelPoint {
            let local = PixelPoint(x: (p.x - face.center.x) * scale * narrowing, y: (p.y - face.center.y) * scale)
            return PixelPoint(x: center.x + local.x * c - local.y * s, y: center.y + local.x * s + local.y * c)
        }
        let w = Double(image.width), h = Double(image.height)
        let corners = [PixelPoint(x: 0, y: 0), PixelPoint(x: w, y: 0), PixelPoint(x: w, y: h), PixelPoint(x: 0, y: h)].map(place)
        return (
            Quad(topLeft: corners[0], topRight: corners[1], bottomRight: corners[2], bottomLeft: corners[3]),
            PixelRect(enclosing: Quad(face).corners.map(place))
        )
    }
}
