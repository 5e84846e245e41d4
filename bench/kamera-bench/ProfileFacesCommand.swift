import ArgumentParser
import Foundation
import Kamera

/// Times the stages of the face requests on one image (for tuning; not a benchmark table).
struct ProfileFacesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "profile-faces", abstract: "Time face request stages on one image.")

    @Argument(help: "An image.")
    var path: String

    @Option(help: "Only run the whole-image detection this many times (for perf record).")
    var wholeOnly: Int?

    @Flag(help: "With --whole-only: without the closer look at each face.")
    var unrefined = false

    @Option(help: "Only run the fast landmark configuration (as bench/faces.sh times it) this many times.")
    var fastOnly: Int?

    func run() throws {
        let image = try Image(contentsOf: URL(fileURLWithPath: path))
        if let fastOnly {
            var detection = DetectFaceRectanglesRequest(scansTiles: false, maximumThreads: 1)
            detection.refinesFaces = false
            detection.detectorRange = .short
            let fast = DetectFaceLandmarksRequest(faceDetection: detection, usesIrisModel: false, refinesMesh: false)
            let start = DispatchTime.now().uptimeNanoseconds
            for _ in 0..<fastOnly { _ = try fast.perform(in: ImageAnalysisContext(image)) }
            print("fast landmarks", Double(DispatchTime.now().uptimeNanoseconds - start) / Double(fastOnly) / 1e6, "ms")
            return
        }
        if let wholeOnly {
            var request = DetectFaceRectanglesRequest(scansTiles: false, maximumThreads: 1)
            request.refinesFaces = !unrefined
            for _ in 0..<wholeOnly { _ = try request.perform(in: ImageAnalysisContext(image)) }
            return
        }
        func time(_ label: String, _ body: () throws -> Void) rethrows {
            for _ in 0..<3 { try body() }
            let start = DispatchTime.now().uptimeNanoseconds
            for _ in 0..<20 { try body() }
            print(label, Double(DispatchTime.now().uptimeNanoseconds - start) / 20e6, "ms")
        }
        var whole = DetectFaceRectanglesRequest(scansTiles: false, maximumThreads: 1)
        time("context.rgb") { _ = ImageAnalysisContext(image).rgb }
        try time("detect (whole, refined)") { _ = try whole.perform(in: ImageAnalysisContext(image)) }
        whole.refinesFaces = false
        try time("detect (whole, unrefined)") { _ = try whole.perform(in: ImageAnalysisContext(image)) }
        whole.refinesFaces = true
        try time("landmarks") { _ = try DetectFaceLandmarksRequest(faceDetection: whole).perform(in: ImageAnalysisContext(image)) }
        let faces = try whole.perform(in: ImageAnalysisContext(image))
        print("faces", faces.count)
        try time("landmarks, fast (no refinement, no iris, one mesh pass)") {
            var fast = DetectFaceLandmarksRequest(faceDetection: whole, usesIrisModel: false, refinesMesh: false)
            fast.faceDetection.refinesFaces = false
            _ = try fast.perform(in: ImageAnalysisContext(image))
        }
        try time("landmarks given faces") {
            _ = try DetectFaceLandmarksRequest(inputFaceObservations: faces).perform(in: ImageAnalysisContext(image))
        }
    }
}
