import ArgumentParser
import Foundation
import Kamera
import KameraTestMedia

/// Writes the tracking benchmark: objects and cards moving through real videos (motion,
/// occlusion, leaving and re-entering the frame) as MP4s with the true box of every frame.
struct TrackingDatasetCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tracking-dataset", abstract: "Write the object and rectangle tracking benchmark sequences.")

    @Argument(help: "Output directory.")
    var output: String

    @Option(help: "Frames per sequence.")
    var frames = 120

    @Flag(
        help: """
            The held-out variant: other videos (tree.avi, Megamind_bugy.avi), other photos for the \
            objects, other seeds, 960×540 frames and objects 10–30 % of the width (made before \
            measuring; never used to tune).
            """)
    var heldOut = false

    struct Sequence: Codable {
        var file: String
        var video: String
        var target: String
        var challenge: String
        /// Per frame: [x, y, width, height] in pixels, or nil when under 30 % is visible.
        var boxes: [[Double]?]
        /// Per frame: topLeft, topRight, bottomRight, bottomLeft as [x, y].
        var corners: [[[Double]]]
    }

    static let videos = ["vtest.avi", "Megamind.avi"]
    static let heldOutVideos = ["tree.avi", "Megamind_bugy.avi"]
    /// opencv-doc photos that are not among the background photos the tuning set cuts from.
    static let heldOutPhotos = [
        "aero1.jpg", "butterfly.jpg", "HappyFish.jpg", "graf1.png", "leuvenA.jpg", "squirrel_cls.jpg", "rubberwhale1.png",
        "ela_original.jpg", "box_in_scene.png", "stuff.jpg",
    ]

    func run() throws {
        let directory = URL(fileURLWithPath: output)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        var written: [Sequence] = []
        var index = 0
        let (width, height) = heldOut ? (960, 540) : (640, 480)
        for video in heldOut ? Self.heldOutVideos : Self.videos {
            for target in TrackingSequence.Target.allCases {
                for challenge in TrackingSequence.Challenge.allCases {
                    let sequence = try TrackingSequence.make(
                        video: video, target: target, challenge: challenge, seed: UInt64((heldOut ? 9000 : 3000) + index),
                        frameCount: frames, width: width, height: height, photos: heldOut ? Self.heldOutPhotos : nil,
                        targetWidth: heldOut ? 0.10...0.30 : 0.18...0.26)
                    let name = String(format: "track_%02d.mp4", index)
                    let first = sequence.frames[0].image
                    // Near-lossless, so every reader decodes the same pixels the truth describes.
                    let recorder = try MovieRecorder(
                        url: directory.appendingPathComponent(name),
                        settings: RecordingSettings(width: first.width, height: first.height, frameRate: 25, quality: 12))
                    for (i, frame) in sequence.frames.enumerated() { _ = try recorder.append(frame.image, at: Double(i) / 25) }
                    _ = try recorder.finish()
                    written.append(
                        Sequence(
                            file: name, video: video, target: target.rawValue, challenge: challenge.rawValue,
                            boxes: sequence.frames.map { $0.box.map { [$0.x, $0.y, $0.width, $0.height] } },
                            corners: sequence.frames.map { $0.corners.corners.map { [$0.x, $0.y] } }))
                    FileHandle.standardError.write(Data("\(name): \(video), \(target), \(challenge)\n".utf8))
                    index += 1
                }
            }
        }
        let encoder = JSONEncoder()
        try encoder.encode(written).write(to: directory.appendingPathComponent("sequences.json"))
    }
}
