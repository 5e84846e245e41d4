import Foundation
import KameraCore
import KameraImageIO
import KameraTestTiers
import Testing

@testable import KameraNN

/// PP-OCRv4's text detector (ONNX, from the rapidocr wheel) on KameraNN against ONNX Runtime
/// on the same input, at two sizes; and hostile ONNX files as typed errors.
@Suite("ONNX models: KameraNN against ONNX Runtime", .tier(.models))
struct ONNXModelTests {
    /// `name` from opencv-doc's examples at `height` × `width`, normalized as PP-OCR's
    /// detector expects (ImageNet mean and deviation), channels first.
    static func input(_ name: String, height: Int, width: Int) throws -> [Float] {
        let path = (ProcessInfo.processInfo.environment["KAMERA_SAMPLE_MEDIA"] ?? "/usr/share/doc/opencv-doc/examples/data") + "/" + name
        let image = try ImageDecoder.decode(Data(contentsOf: URL(fileURLWithPath: path))).pixelBuffer.converted(to: .rgb8)
            .resized(width: width, height: height)
        let (mean, deviation): ([Float], [Float]) = ([0.485, 0.456, 0.406], [0.229, 0.224, 0.225])
        var values = [Float](repeating: 0, count: 3 * height * width)
        for c in 0..<3 {
            for y in 0..<height {
                for x in 0..<width {
                    values[(c * height + y) * width + x] = (Float(image.pixel(x: x, y: y)[c]) / 255 - mean[c]) / deviation[c]
                }
            }
        }
        return values
    }

    @Test(
        "The text detector's probability map matches ONNX Runtime's on photos of text",
        arguments: [("imageTextN.png", 160, 320), ("imageTextR.png", 256, 320)])
    func detectorMatches(photo: String, height: Int, width: Int) throws {
        let path = try ModelStore.default.path(of: .textDetection)
        let network = try ONNXNetwork(contentsOf: path).network(height: height, width: width)
        #expect(network.inputShapes == [[1, height, width, 3]])
        #expect(network.outputShapes == [[1, height, width, 1]])
        let chw = try Self.input(photo, height: height, width: width)
        // KameraNN takes NHWC.
        var hwc = [Float](repeating: 0, count: chw.count)
        for c in 0..<3 {
            for p in 0..<(height * width) { hwc[p * 3 + c] = chw[c * height * width + p] }
        }
        let ours = try network.makeSession().run(hwc)[0]
        let theirs = try ONNXRuntimeReference.run(model: path, input: chw, shape: [1, 3, height, width])
        #expect(ours.count == theirs.count)
        let worst = zip(ours, theirs).map { abs($0 - $1) }.max() ?? .infinity
        #expect(worst < 1e-4, "max |Δ| \(worst) over \(ours.count) probabilities")
        // The text is found: a good share of the map is sure of it.
        let text = Double(theirs.filter { $0 > 0.3 }.count) / Double(theirs.count)
        #expect(text > 0.03, "\(Int(text * 100)) % of the map above 0.3")
    }

    @Test("Truncated, empty and foreign files are typed errors")
    func hostileFiles() throws {
        let path = try ModelStore.default.path(of: .textDetection)
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        for cut in [0, 1, 100, bytes.count / 2, bytes.count - 1] {
            #expect(throws: KameraError.self, "cut at \(cut)") { try ONNXNetwork(bytes: Array(bytes.prefix(cut)), name: "cut") }
        }
        #expect(throws: KameraError.self) { try ONNXNetwork(bytes: Array("TFL3 not an onnx model".utf8), name: "text") }
        #expect(throws: KameraError.self) {
            try ONNXNetwork(bytes: [0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff], name: "varint")
        }
        let network = try ONNXNetwork(bytes: bytes, name: "det")
        #expect(throws: KameraError.self) { try network.network(height: 0, width: 32) }
        #expect(throws: KameraError.self) { try network.network(height: 1 << 20, width: 32) }
    }
}
