import Foundation
import KameraCore
import KameraNN
import Synchronization

/// PP-OCRv4 end to end, as RapidOCR runs it: the DB detector finds each line, the line is cut
/// out along its slant (turned upright when it stands taller than wide), and the SVTR
/// recognizer reads it; the reading is the best character in each column, repeats merged and
/// blanks dropped (CTC), its confidence the mean of those characters' probabilities. Lines
/// read with less than 0.5 are dropped — the detector's texture false alarms among them.
struct SceneTextReader: Sendable {
    /// A line read: its corners in the image's pixels, the text and its confidence.
    struct Line: Sendable {
        var corners: Quad
        var text: String
        var confidence: Float
    }

    static let lineHeight = 48
    static let minimumConfidence: Float = 0.5

    let models: ModelStore

    /// The recognizer compiled per input width (a few widths cover every line: each is
    /// rounded up to 64 pixels), with its character list.
    private final class Recognizers: Sendable {
        let programs = Mutex<[Int: (ONNXProgram, InferenceSessionPool)]>([:])
        let characters = Mutex<[String]?>(nil)
    }
    private static let recognizers = Recognizers()

    /// The lines in `image`, top to bottom.
    /// - Throws: `KameraError.missingResource` when a model is not installed.
    func lines(in image: PixelBuffer) throws -> [Line] {
        let rgb = image.format == .rgb8 ? image.packed() : image.converted(to: .rgb8)
        let found = try SceneTextDetector(models: models).lines(in: rgb)
        // Reading order: top to bottom, then left to right within ten pixels (RapidOCR's sort).
        let ordered = found.sorted { a, b in
            let (ya, yb) = (a.corners.topLeft.y, b.corners.topLeft.y)
            return abs(ya - yb) < 10 ? a.corners.topLeft.x < b.corners.topLeft.x : ya < yb
        }
        return try ordered.compactMap { line in
            let (text, confidence) = try read(line.corners, in: rgb)
            guard confidence >= Self.minimumConfidence, !text.trimmingCharacters(in: .whitespaces).isEmpty else { return nil }
            return Line(corners: line.corners, text: text, confidence: confidence)
        }
    }

    /// Reads one line cut out of `image` along `quad`.
    func read(_ quad: Quad, in image: PixelBuffer) throws -> (String, Float) {
        var (origin, across, down) = (quad.topLeft, quad.topRight - quad.topLeft, quad.bottomLeft - quad.topLeft)
        var (length, thickness) = (hypot(across.x, across.y), hypot(down.x, down.y))
        // A line standing taller than wide is read turned a quarter (RapidOCR's rule).
        if thickness >= 1.5 * length {
            (origin, across, down) = (quad.bottomLeft, quad.topLeft - quad.bottomLeft, quad.bottomRight - quad.bottomLeft)
            (length, thickness) = (thickness, length)
        }
        guard length >= 1, thickness >= 1 else { return ("", 0) }
        let height = Self.lineHeight
        // Clamped as a Double before converting (a degenerate quad must not trap).
        let lineWidth = Int(min(3200, max(1, (Double(height) * length / thickness).rounded(.up))))
        let width = max(320, (lineWidth + 63) / 64 * 64)
        let (program, sessions) = try recognizer(width: width)
        let characters = try characterList()
        let output = try sessions.withSession { session -> (shape: [Int], values: [Float]) in
            session.withInput { input in
                image.bytes.withUnsafeBufferPointer { bytes in
                    for y in 0..<height {
                        let v = (Double(y) + 0.5) / Double(height)
                        for x in 0..<width {
                            let at = (y * width + x) * 3
                            guard x < lineWidth else {
                                // Padding: zero after normalization, as RapidOCR pads.
                                (input[at], input[at + 1], input[at + 2]) = (0, 0, 0)
                                continue
                            }
                            let u = (Double(x) + 0.5) / Double(lineWidth)
                            let p = PixelPoint(x: origin.x + u * across.x + v * down.x, y: origin.y + u * across.y + v * down.y)
                            for c in 0..<3 {
                                input[at + c] = (Self.sample(bytes, image.width, image.height, p, channel: c) / 255 - 0.5) / 0.5
                            }
                        }
                    }
                }
            }
            guard let first = try program.run(session).first else {
                throw KameraError.invalidModel(path: program.network.path, reason: "no output")
            }
            return first
        }
        return Self.decode(output.values, classes: output.shape.last ?? 1, characters: characters)
    }

    /// CTC's greedy reading: the best class per column, repeats merged, blanks (class 0)
    /// dropped; class i ≥ 1 is `characters[i - 1]`, the last class a space.
    static func decode(_ probabilities: [Float], classes: Int, characters: [String]) -> (String, Float) {
        var text = "", previous = 0
        var scores: [Float] = []
        for column in 0..<(probabilities.count / max(classes, 1)) {
            let base = column * classes
            var (best, score) = (0, -Float.infinity)
            for k in 0..<classes where probabilities[base + k] > score { (best, score) = (k, probabilities[base + k]) }
            if best != 0, best != previous {
                text += best - 1 < characters.count ? characters[best - 1] : " "
                scores.append(score)
            }
            previous = best
        }
        return (text, scores.isEmpty ? 0 : scores.reduce(0, +) / Float(scores.count))
    }

    private static func sample(_ bytes: UnsafeBufferPointer<UInt8>, _ width: Int, _ height: Int, _ p: PixelPoint, channel: Int) -> Float {
        let x = min(max(p.x - 0.5, 0), Double(width - 1)), y = min(max(p.y - 0.5, 0), Double(height - 1))
        let (x0, y0) = (Int(x), Int(y))
        let (x1, y1) = (min(x0 + 1, width - 1), min(y0 + 1, height - 1))
        let (fx, fy) = (Float(x - Double(x0)), Float(y - Double(y0)))
        func at(_ xx: Int, _ yy: Int) -> Float { Float(bytes[(yy * width + xx) * 3 + channel]) }
        let top = at(x0, y0) + (at(x1, y0) - at(x0, y0)) * fx
        let bottom = at(x0, y1) + (at(x1, y1) - at(x0, y1)) * fx
        return top + (bottom - top) * fy
    }

    private func recognizer(width: Int) throws -> (ONNXProgram, InferenceSessionPool) {
        if let found = Self.recognizers.programs.withLock({ $0[width] }) { return found }
        let program = try models.onnxNetwork(.textRecognition).program(height: Self.lineHeight, width: width)
        let entry = (program, InferenceSessionPool(network: program.network))
        Self.recognizers.programs.withLock { programs in
            // A handful of widths are kept; a long tail of line lengths compiles again.
            if programs.count >= 8 { programs.removeAll() }
            programs[width] = entry
        }
        return entry
    }

    private func characterList() throws -> [String] {
        if let list = Self.recognizers.characters.withLock({ $0 }) { return list }
        let model = try models.onnxNetwork(.textRecognition)
        guard let text = model.metadata["character"] else {
            throw KameraError.invalidModel(path: model.path, reason: "no character list in the model's metadata")
        }
        let list = text.split(separator: "\n").map(String.init)
        Self.recognizers.characters.withLock { $0 = list }
        return list
    }
}
