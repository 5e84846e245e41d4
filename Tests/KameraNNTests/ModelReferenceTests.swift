import Foundation
import KameraCore
import KameraTestTiers
import Testing

@testable import KameraNN

@Suite("MediaPipe face, body, hand and segmentation models: KameraNN against LiteRT on the same inputs", .tier(.models))
struct ModelReferenceTests {
    @Test("Each model's outputs match LiteRT's", arguments: KameraModel.allCases.filter { !$0.isONNX && !$0.usesMediaPipeOperators })
    func matchesLiteRT(model: KameraModel) throws {
        let path = try ModelStore.default.path(of: model)
        let network = try ModelStore.default.network(model)
        let shape = network.inputShapes[0]
        // A smooth pattern plus noise: activations spread over the network's range like an image.
        var seed: UInt64 = 42
        let count = shape.reduce(1, *)
        let (h, w, c) = (shape[1], shape[2], shape[3])
        var input = [Float](repeating: 0, count: count)
        for y in 0..<h {
            for x in 0..<w {
                for k in 0..<c {
                    seed = seed &* 6364136223846793005 &+ 1442695040888963407
                    let noise = Float(seed >> 40) / Float(1 << 24) - 0.5
                    input[(y * w + x) * c + k] = sin(Float(x) * 0.11 + Float(k)) * cos(Float(y) * 0.07) * 0.8 + noise * 0.4
                }
            }
        }
        let session = network.makeSession()
        let outputs = try session.run(input)
        let reference = try LiteRTReference.run(model: path, input: input)
        #expect(outputs.map(\.count).reduce(0, +) == reference.count)
        // Each output against its own range (a landmark model's coordinates, scores and mask
        // logits differ in scale by orders of magnitude).
        var start = 0
        for (index, raw) in outputs.enumerated() {
            var theirs = Array(reference[start..<min(start + raw.count, reference.count)])
            var ours = raw
            start += raw.count
            var tolerance = Float(1e-4)
            if Self.maskLogits.contains(where: { $0 == (model, index) }) {
                // Logits reaching ±1,500 after a deep decoder, where rounding moves single values
                // by up to ~1 (mean |Δ| 0.0014 against mean |logit| 60): compared as the mask
                // MediaPipe makes of them, to within a quarter of one 8-bit grey level.
                ours = ours.map { 1 / (1 + exp(-$0)) }
                theirs = theirs.map { 1 / (1 + exp(-$0)) }
                tolerance = 0.25 / 255
            }
            let scale = theirs.map(abs).max() ?? 1
            let worst = zip(ours, theirs).map { abs($0 - $1) }.max() ?? .infinity
            // fp32 with a different summation order: differences are rounding, far below 1e-3 of the range.
            #expect(worst <= tolerance * max(scale, 1), "\(model.fileName) output \(index): max |Δ| \(worst), range \(scale)")
        }
    }

    /// Outputs that are a person mask's logits (passed through a sigmoid before use).
    static let maskLogits: [(KameraModel, Int)] = [(.poseLandmarkFull, 2)]

    @Test("Two threads give the same outputs as one")
    func threadsAgree() throws {
        let network = try ModelStore.default.network(.faceLandmark)
        let input = (0..<network.inputShapes[0].reduce(1, *)).map { Float(($0 * 7919) % 1000) / 1000 }
        let one = try network.makeSession(threads: 1).run(input)
        let two = try network.makeSession(threads: 2).run(input)
        #expect(one == two)
    }

    @Test("Truncated, corrupt and foreign model files are typed errors naming the file")
    func badModels() throws {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: try ModelStore.default.path(of: .faceDetectionShortRange))))
        for cut in [0, 7, 100, bytes.count / 3, bytes.count / 2] {
            #expect(throws: KameraError.self) { try NeuralNetwork(bytes: Array(bytes.prefix(cut)), name: "cut\(cut)") }
        }
        // Random corruption anywhere: each copy either fails with a typed error or loads and
        // runs; none may crash.
        var seed: UInt64 = 99
        var rejected = 0
        for _ in 0..<300 {
            var corrupt = bytes
            for _ in 0..<4 {
                seed = seed &* 6364136223846793005 &+ 1442695040888963407
                corrupt[Int(seed >> 33) % min(corrupt.count, 60_000)] ^= UInt8(truncatingIfNeeded: seed >> 20) | 1
            }
            do {
                let session = try NeuralNetwork(bytes: corrupt, name: "corrupt").makeSession()
                session.invoke()
            } catch is KameraError {
                rejected += 1
            }
        }
        #expect(rejected > 0)
        // The store's checksum catches corruption that still parses.
        var flipped = bytes
        flipped[bytes.count - 100] ^= 0x40
        #expect(throws: KameraError.self) {
            try ModelStore.verifiedNetwork(bytes: flipped, path: "flipped", model: .faceDetectionShortRange)
        }
        _ = try ModelStore.verifiedNetwork(bytes: bytes, path: "good", model: .faceDetectionShortRange)
        #expect(throws: KameraError.self) { try NeuralNetwork(bytes: Array("not a model at all".utf8), name: "text") }
        do {
            _ = try NeuralNetwork(contentsOf: "/nonexistent/model.tflite")
            Issue.record("a missing model loaded")
        } catch let error as KameraError {
            #expect(error.description.contains("scripts/models.sh"))
        }
    }

    @Test("An operator KameraNN does not implement is named in a typed error")
    func unknownOperator() throws {
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: try ModelStore.default.path(of: .faceDetectionShortRange))))
        // Rewrite the first operator code to builtin 102 (not one KameraNN runs) in whichever
        // fields the file has (old models only have the byte-sized one).
        let reader = FlatBufferReader(bytes: bytes, path: "patched")
        let code = try #require(try reader.root().tables(1).first)
        if let position = try code.fieldPosition(3) {
            bytes[position] = 102; bytes[position + 1] = 0; bytes[position + 2] = 0; bytes[position + 3] = 0
        }
        let old = try #require(try code.fieldPosition(0))
        bytes[old] = 102
        do {
            _ = try NeuralNetwork(bytes: bytes, name: "patched")
            Issue.record("a model with an unknown operator loaded")
        } catch let error as KameraError {
            #expect(error.description.contains("unsupported operator (builtin code 102)"), "\(error)")
        }
    }

    @Test("The model directory verifies every pinned model")
    func storeVerifies() {
        let status = ModelStore.default.status()
        #expect(status.count == KameraModel.allCases.count)
        for entry in status { #expect(entry.verified, "\(entry.path) does not verify") }
    }

    @Test("SHA-256 of known strings")
    func sha256() {
        #expect(SHA256Digest.hex([]) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(SHA256Digest.hex(Array("abc".utf8)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(SHA256Digest.hex(Array(repeating: UInt8(ascii: "a"), count: 1000)).hasPrefix("41edece42d63e8d9bf515a9ba6932e1c"))
    }
}
