import Foundation
import KameraCore
import KameraImageIO
import KameraRender
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

    @Test(
        "The text recognizer's character probabilities match ONNX Runtime's on a printed line, and read it",
        arguments: [("KAMERA 4921", 320), ("Open daily 9-17", 480)])
    func recognizerMatches(printed: String, width: Int) throws {
        let path = try ModelStore.default.path(of: .textRecognition)
        let model = try ModelStore.default.onnxNetwork(.textRecognition)
        #expect(model.metadata["character"]?.split(separator: "\n").count == 6623)
        let program = try model.program(height: 48, width: width)
        // The line printed in the standard font, as PP-OCR's recognizer takes it: 48 pixels
        // high, values −1…1.
        var canvas = Canvas(PixelBuffer(width: width, height: 48, format: .rgb8, filledWith: [245, 245, 240]))
        canvas.draw(
            text: printed, at: PixelPoint(x: 8, y: 6), size: 30, color: Color(red: 20, green: 20, blue: 30), font: try FontFace.standard())
        let line = canvas.buffer
        var chw = [Float](repeating: 0, count: 3 * 48 * width)
        for c in 0..<3 {
            for y in 0..<48 {
                for x in 0..<width { chw[(c * 48 + y) * width + x] = (Float(line.pixel(x: x, y: y)[c]) / 255 - 0.5) / 0.5 }
            }
        }
        let session = program.network.makeSession()
        session.withInput { input in
            for c in 0..<3 { for p in 0..<(48 * width) { input[p * 3 + c] = chw[c * 48 * width + p] } }
        }
        let ours = try #require(try program.run(session).first)
        let theirs = try ONNXRuntimeReference.run(model: path, input: chw, shape: [1, 3, 48, width])
        #expect(ours.shape == [1, width / 8, 6625] && ours.values.count == theirs.count)
        let worst = zip(ours.values, theirs).map { abs($0 - $1) }.max() ?? .infinity
        #expect(worst < 1e-4, "max |Δ| \(worst) over \(theirs.count) probabilities")
        // Read greedily (CTC: the best class per column, repeats merged, blanks dropped): the
        // line's words come out.
        let characters = ["<blank>"] + (model.metadata["character"] ?? "").split(separator: "\n").map(String.init) + [" "]
        var text = "", previous = 0
        for column in 0..<ours.shape[1] {
            let row = ours.values[(column * 6625)..<((column + 1) * 6625)]
            let best = row.indices.max { row[$0] < row[$1] }! - column * 6625
            if best != 0, best != previous { text += characters[best] }
            previous = best
        }
        #expect(text == printed, "read \(text)")
    }

    @Test("The direction classifier matches ONNX Runtime's and tells an upright line from one turned over")
    func directionClassifierMatches() throws {
        let path = try ModelStore.default.path(of: .textDirection)
        let program = try ModelStore.default.onnxNetwork(.textDirection).program(height: 48, width: 192)
        var canvas = Canvas(PixelBuffer(width: 192, height: 48, format: .rgb8, filledWith: [245, 245, 240]))
        canvas.draw(
            text: "Open daily", at: PixelPoint(x: 6, y: 6), size: 30, color: Color(red: 20, green: 20, blue: 30),
            font: try FontFace.standard())
        for (turned, line) in [(false, canvas.buffer), (true, canvas.buffer.rotated(byQuarterTurns: 2))] {
            var chw = [Float](repeating: 0, count: 3 * 48 * 192)
            for c in 0..<3 {
                for y in 0..<48 {
                    for x in 0..<192 { chw[(c * 48 + y) * 192 + x] = (Float(line.pixel(x: x, y: y)[c]) / 255 - 0.5) / 0.5 }
                }
            }
            let session = program.network.makeSession()
            session.withInput { input in
                for c in 0..<3 { for p in 0..<(48 * 192) { input[p * 3 + c] = chw[c * 48 * 192 + p] } }
            }
            let ours = try #require(try program.run(session).first)
            let theirs = try ONNXRuntimeReference.run(model: path, input: chw, shape: [1, 3, 48, 192])
            #expect(ours.shape == [1, 2] && theirs.count == 2)
            let worst = zip(ours.values, theirs).map { abs($0 - $1) }.max() ?? .infinity
            #expect(worst < 1e-4, "ours \(ours.values), ONNX Runtime \(theirs)")
            // Labels "0" and "180".
            #expect(turned ? theirs[1] > 0.9 : theirs[0] > 0.9, "turned \(turned): \(theirs)")
        }
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
