import ArgumentParser
import Foundation
import Kamera

/// Runs Kamera's object tracker (both levels) and rectangle tracker on the tracking
/// benchmark's sequences, each started from the first frame's true box; prints per-frame
/// boxes, confidences and the time per frame (tracking only, not decoding) as JSON.
struct TrackingCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tracking", abstract: "Kamera's trackers on the tracking benchmark (JSON).")

    @Argument(help: "The directory tracking-dataset wrote.")
    var directory: String

    struct Run: Encodable {
        var boxes: [[Double]] = []
        var corners: [[[Double]]]? = nil
        var confidences: [Double] = []
        var milliseconds = 0.0
    }

    struct Output: Encodable {
        /// Below this confidence a result counts as "target lost".
        var lostBelow: Double
        var accurate: [Run]
        var fast: [Run]
        /// TrackRectangleRequest (accurate) on the card sequences, nil for the others.
        var rectangle: [Run?]
    }

    func run() throws {
        let url = URL(fileURLWithPath: directory)
        let sequences = try JSONDecoder().decode(
            [TrackingDatasetCommand.Sequence].self, from: Data(contentsOf: url.appendingPathComponent("sequences.json")))
        var output = Output(lostBelow: 0.45, accurate: [], fast: [], rectangle: [])
        for sequence in sequences {
            let path = url.appendingPathComponent(sequence.file).path
            for level in [TrackingLevel.accurate, .fast] {
                let run = try track(path: path, sequence: sequence, level: level, rectangle: false)
                if level == .accurate { output.accurate.append(run) } else { output.fast.append(run) }
            }
            output.rectangle.append(
                sequence.target == "card" ? try track(path: path, sequence: sequence, level: .accurate, rectangle: true) : nil)
        }
        let encoder = JSONEncoder()
        FileHandle.standardOutput.write(try encoder.encode(output))
    }

    private func track(path: String, sequence: TrackingDatasetCommand.Sequence, level: TrackingLevel, rectangle: Bool) throws -> Run {
        let reader = try MovieReader(path: path, outputFormat: .rgb8)
        var run = Run()
        if rectangle { run.corners = [] }
        var objectRequest: TrackObjectRequest?
        var rectangleRequest: TrackRectangleRequest?
        var seconds = 0.0
        while let frame = try reader.nextFrame() {
            let image = Image(pixelBuffer: frame.pixelBuffer)
            let size = image.size
            if frame.index == 0 {
                let box = sequence.boxes[0]!
                if rectangle {
                    let c = sequence.corners[0].map { PixelPoint(x: $0[0], y: $0[1]) }
                    let quad = Quad(topLeft: c[0], topRight: c[1], bottomRight: c[2], bottomLeft: c[3])
                    rectangleRequest = TrackRectangleRequest(
                        detectedRectangle: RectangleObservation(pixelCorners: quad, imageSize: size, confidence: 1))
                } else {
                    objectRequest = TrackObjectRequest(
                        detectedObject: DetectedObjectObservation(
                            pixelBox: PixelRect(x: box[0], y: box[1], width: box[2], height: box[3]), imageSize: size))
                }
                objectRequest?.trackingLevel = level
                rectangleRequest?.trackingLevel = level
            }
            let start = DispatchTime.now().uptimeNanoseconds
            if let rectangleRequest {
                let found = try rectangleRequest.performSynchronously(on: image)
                run.corners?.append(found.pixelCorners.corners.map { [$0.x, $0.y] })
                let b = found.pixelBounds
                run.boxes.append([b.x, b.y, b.width, b.height])
                run.confidences.append(Double(found.confidence))
            } else if let objectRequest {
                let found = try objectRequest.performSynchronously(on: image)
                let b = found.pixelBox
                run.boxes.append([b.x, b.y, b.width, b.height])
                run.confidences.append(Double(found.confidence))
            }
            if frame.index > 0 { seconds += Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9 }
        }
        run.milliseconds = 1000 * seconds / Double(max(1, run.boxes.count - 1))
        return run
    }
}
