import Foundation
import KameraCore
import KameraNN
import Synchronization

/// PP-OCRv4 end to end, as RapidOCR runs it: the DB detector finds each line, the line is cut
/// out along its slant (turned upright when it stands taller than wide), and the SVTR
/// recognizer reads it (`CTCDecoder`: the best character in each column, repeats merged,
/// blanks dropped, spaces restored, only the languages' characters), its confidence the mean
/// of those characters' probabilities. Lines read with less than 0.5 are dropped — the
/// detector's texture false alarms among them. Lines come in reading order along the text's
/// own slant.
struct SceneTextReader: Sendable {
    /// What to read and how many readings to keep.
    struct Options: Sendable {
        var script = CTCDecoder.Script.latin
        /// Readings kept per line (the best first).
        var candidates = 1
        /// Words preferred over a reading within one edit (two for words of 8+ characters)
        /// when the columns support them nearly as well (Vision's `customWords`).
        var customWords: [String] = []
        /// Turn lines the direction classifier finds upside down (PP-OCR's third model).
        var checksDirection = true
        /// Bring an image's shorter side up to 736 pixels for the detector (RapidOCR's rule:
        /// finds smaller text); off, a live frame is searched at its own size, for pace.
        var enlargesSmallImages = true
        /// A stream's memory of lines read (nil: read every line).
        var memory: SceneLineMemory?
    }

    /// Where a line was cut out: the image point of its top-left corner, the vectors along
    /// and across it, and how much of the line one recognizer column covers.
    struct LineFrame: Sendable {
        var origin: PixelPoint, across: PixelPoint, down: PixelPoint
        /// A column's share of the line's length (8 input pixels over the content's width).
        var columnFraction: Double

        /// The corners of the part of the line from column `a` to column `b` (fractions allowed).
        func quad(fromColumn a: Double, toColumn b: Double) -> Quad {
            let (u0, u1) = (min(max(a * columnFraction, 0), 1), min(max(b * columnFraction, 0), 1))
            func at(_ u: Double, _ v: Double) -> PixelPoint {
                PixelPoint(x: origin.x + u * across.x + v * down.x, y: origin.y + u * across.y + v * down.y)
            }
            return Quad(topLeft: at(u0, 0), topRight: at(u1, 0), bottomRight: at(u1, 1), bottomLeft: at(u0, 1))
        }
    }

    /// A line read: its corners in the image's pixels, its readings (best first) and frame.
    struct Line: Sendable {
        var corners: Quad
        var readings: [CTCDecoder.Reading]
        var frame: LineFrame
        var text: String { readings.first?.text ?? "" }
        var confidence: Float { readings.first?.confidence ?? 0 }

        /// Each word of the best reading with its corners and characters' corners: a
        /// character spans half-way to its neighbours' columns (a column and a half at the
        /// ends).
        func words() -> [(text: String, confidence: Float, corners: Quad, characters: [(String, Quad)])] {
            guard let reading = readings.first else { return [] }
            let read = reading.characters
            var spans: [(Double, Double)] = []
            for (i, character) in read.enumerated() {
                let c = Double(character.column) + 0.5
                let left = i > 0 ? (Double(read[i - 1].column) + 0.5 + c) / 2 : c - 1.5
                let right = i + 1 < read.count ? (c + Double(read[i + 1].column) + 0.5) / 2 : c + 1.5
                spans.append((left, right))
            }
            var words: [(String, Float, Quad, [(String, Quad)])] = []
            var start: Int?
            for i in 0...read.count {
                let space = i == read.count || read[i].text == " "
                if !space, start == nil { start = i }
                guard space, let first = start else { continue }
                let part = read[first..<i]
                words.append(
                    (
                        part.map(\.text).joined(), part.map(\.probability).reduce(0, +) / Float(part.count),
                        frame.quad(fromColumn: spans[first].0, toColumn: spans[i - 1].1),
                        (first..<i).map { (read[$0].text, frame.quad(fromColumn: spans[$0].0, toColumn: spans[$0].1)) }
                    ))
                start = nil
            }
            return words
        }
    }

    static let lineHeight = 48
    static let minimumConfidence: Float = 0.5
    /// A reading at least this confident is not tried the other way up.
    static let sureReading: Float = 0.9

    let models: ModelStore

    /// The recognizer compiled per input width (a few widths cover every line: each is
    /// rounded up to 64 pixels), with its character list.
    private final class Recognizers: Sendable {
        let programs = Mutex<[Int: (ONNXProgram, InferenceSessionPool)]>([:])
        let characters = Mutex<[String]?>(nil)
        let direction = Mutex<(ONNXProgram, InferenceSessionPool)?>(nil)
    }
    private static let recognizers = Recognizers()

    /// The lines in `image`, in reading order.
    /// - Throws: `KameraError.missingResource` when a model is not installed.
    func lines(in image: PixelBuffer, options: Options = Options()) throws -> [Line] {
        let rgb = image.format == .rgb8 ? image.packed() : image.converted(to: .rgb8)
        let detector = SceneTextDetector(models: models, enlargesSmallImages: options.enlargesSmallImages)
        var found = try detector.lines(in: rgb).map(\.corners)
        // A page held askew: the detector, trained on level text, misses lines past about
        // 20° (one of three at 28°; all found at 17°). When the lines found lean more than
        // 20°, the picture is levelled by their slant and searched again, and the better
        // search is kept (a second detector pass, so not for the usual slight slant).
        if let slant = Self.commonSlant(found), abs(slant) > 20 * .pi / 180, abs(slant) < 70 * .pi / 180 {
            let (level, toSource) = rgb.rotated(byDegrees: -slant * 180 / .pi, fill: 128)
            let again = try detector.lines(in: level).map { line in
                let c = line.corners.corners.map(toSource.apply)
                return Quad(topLeft: c[0], topRight: c[1], bottomRight: c[2], bottomLeft: c[3])
            }
            if again.count > found.count { found = again }
        }
        let decoder = CTCDecoder(characters: try characterList(), script: options.script)
        return try Self.readingOrder(found).compactMap { corners in
            let line = try read(corners, in: rgb, decoder: decoder, options: options)
            guard line.confidence >= Self.minimumConfidence, !line.text.trimmingCharacters(in: .whitespaces).isEmpty else { return nil }
            return line
        }
    }

    /// Reads one line cut out of `image` along `quad`.
    func read(_ quad: Quad, in image: PixelBuffer, decoder: CTCDecoder, options: Options) throws -> Line {
        var (origin, across, down) = (quad.topLeft, quad.topRight - quad.topLeft, quad.bottomLeft - quad.topLeft)
        var (length, thickness) = (hypot(across.x, across.y), hypot(down.x, down.y))
        // A line standing taller than wide is read turned a quarter (RapidOCR's rule).
        if thickness >= 1.5 * length {
            (origin, across, down) = (quad.bottomLeft, quad.topLeft - quad.bottomLeft, quad.bottomRight - quad.bottomLeft)
            (length, thickness) = (thickness, length)
        }
        guard length >= 1, thickness >= 1 else {
            return Line(corners: quad, readings: [], frame: LineFrame(origin: origin, across: across, down: down, columnFraction: 1))
        }
        // Clamped as a Double before converting (a degenerate quad must not trap).
        let lineWidth = Int(min(3200, max(1, (Double(Self.lineHeight) * length / thickness).rounded(.up))))
        let turned = LineFrame(
            origin: PixelPoint(x: origin.x + across.x + down.x, y: origin.y + across.y + down.y),
            across: PixelPoint(x: -across.x, y: -across.y), down: PixelPoint(x: -down.x, y: -down.y), columnFraction: 1)
        var frame = LineFrame(origin: origin, across: across, down: down, columnFraction: 1)
        // A stream's line seen before, unchanged, keeps its reading.
        let thumbnail = options.memory.map { _ in Self.thumbnail(frame, in: image) }
        if let memory = options.memory, let thumbnail, let known = memory.recall(quad, thumbnail: thumbnail) {
            var placed = known.flipped ? turned : frame
            placed.columnFraction = known.columnFraction
            return Line(corners: quad, readings: known.readings, frame: placed)
        }
        // Turned over when the direction classifier is sure the line is upside down
        // (RapidOCR's rule: "180" at 0.9 or more)...
        let flipped = options.checksDirection ? try upsideDown(frame, lineWidth: lineWidth, in: image) : false
        var line = try read(flipped ? turned : frame, quad: quad, lineWidth: lineWidth, in: image, decoder: decoder, options: options)
        // ...but the classifier errs on some lines either way (one in 13 of a printed page,
        // and short lines turned over): a doubtful reading is read the other way too, and the
        // surer reading kept.
        if options.checksDirection, line.confidence < Self.sureReading {
            frame = flipped ? frame : turned
            let other = try read(frame, quad: quad, lineWidth: lineWidth, in: image, decoder: decoder, options: options)
            if other.confidence > line.confidence { line = other }
        }
        if let memory = options.memory, let thumbnail {
            memory.remember(
                SceneLineMemory.Entry(
                    corners: quad, thumbnail: thumbnail, flipped: line.frame.origin != origin, readings: line.readings,
                    columnFraction: line.frame.columnFraction, lastUsed: 0))
        }
        return line
    }

    /// A small grey picture of the line (its luma, 64 × 12), to know it again.
    static func thumbnail(_ frame: LineFrame, in image: PixelBuffer) -> [UInt8] {
        let (w, h) = SceneLineMemory.thumbnailSize
        var out = [UInt8](repeating: 0, count: w * h)
        image.bytes.withUnsafeBufferPointer { bytes in
            for y in 0..<h {
                let v = (Double(y) + 0.5) / Double(h)
                for x in 0..<w {
                    let u = (Double(x) + 0.5) / Double(w)
                    let p = PixelPoint(
                        x: frame.origin.x + u * frame.across.x + v * frame.down.x, y: frame.origin.y + u * frame.across.y + v * frame.down.y
                    )
                    let luma =
                        0.299 * sample(bytes, image.width, image.height, p, channel: 0)
                        + 0.587 * sample(bytes, image.width, image.height, p, channel: 1)
                        + 0.114 * sample(bytes, image.width, image.height, p, channel: 2)
                    out[y * w + x] = UInt8(min(max(luma.rounded(), 0), 255))
                }
            }
        }
        return out
    }

    /// Reads a line cut along `frame` (its `columnFraction` is set here).
    private func read(
        _ frame: LineFrame, quad: Quad, lineWidth: Int, in image: PixelBuffer, decoder: CTCDecoder, options: Options
    ) throws -> Line {
        let width = max(320, (lineWidth + 63) / 64 * 64)
        let (program, sessions) = try recognizer(width: width)
        let output = try Self.run(program, sessions) { input in
            Self.fill(input, width: width, contentWidth: lineWidth, frame, from: image)
        }
        let classes = max(output.shape.last ?? 1, 1)
        let columns = output.values.count / classes
        var readings = decoder.candidates(output.values, columns: columns, classes: classes, limit: max(1, options.candidates))
        if !options.customWords.isEmpty, let best = readings.first,
            let preferred = Self.preferringCustomWords(
                best, options.customWords, decoder, output.values, columns: columns, classes: classes)
        {
            readings.insert(preferred, at: 0)
            readings = Array(readings.prefix(max(1, options.candidates)))
        }
        var placed = frame
        placed.columnFraction = Double(width) / Double(max(columns, 1)) / Double(lineWidth)
        return Line(corners: quad, readings: readings, frame: placed)
    }

    /// Whether the direction classifier is sure (0.9) the line from `origin` is upside down.
    private func upsideDown(_ frame: LineFrame, lineWidth: Int, in image: PixelBuffer) throws -> Bool {
        let (program, sessions) = try directionClassifier()
        let width = Self.directionInputWidth
        let output = try Self.run(program, sessions) { input in
            Self.fill(input, width: width, contentWidth: min(lineWidth, width), frame, from: image)
        }
        return output.values.count == 2 && output.values[1] >= 0.9
    }

    /// Runs `program` on an input `fill` writes.
    private static func run(
        _ program: ONNXProgram, _ sessions: InferenceSessionPool, fill: (UnsafeMutableBufferPointer<Float>) -> Void
    ) throws -> (shape: [Int], values: [Float]) {
        try sessions.withSession { session in
            session.withInput(0, fill)
            guard let first = try program.run(session).first else {
                throw KameraError.invalidModel(path: program.network.path, reason: "no output")
            }
            return first
        }
    }

    /// A line cut out along its slant into a 48-pixel-high input `width` wide: the line
    /// stretched over the first `contentWidth` columns, zero (after normalization) after them
    /// as RapidOCR pads; values (v / 255 − 0.5) / 0.5.
    private static func fill(
        _ input: UnsafeMutableBufferPointer<Float>, width: Int, contentWidth: Int, _ frame: LineFrame, from image: PixelBuffer
    ) {
        let (origin, across, down) = (frame.origin, frame.across, frame.down)
        let height = lineHeight
        image.bytes.withUnsafeBufferPointer { bytes in
            for y in 0..<height {
                let v = (Double(y) + 0.5) / Double(height)
                for x in 0..<width {
                    let at = (y * width + x) * 3
                    guard x < contentWidth else {
                        (input[at], input[at + 1], input[at + 2]) = (0, 0, 0)
                        continue
                    }
                    let u = (Double(x) + 0.5) / Double(contentWidth)
                    let p = PixelPoint(x: origin.x + u * across.x + v * down.x, y: origin.y + u * across.y + v * down.y)
                    for c in 0..<3 { input[at + c] = (sample(bytes, image.width, image.height, p, channel: c) / 255 - 0.5) / 0.5 }
                }
            }
        }
    }

    /// The direction classifier's input width (its lines are 48 × 192).
    static let directionInputWidth = 192

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

    private func directionClassifier() throws -> (ONNXProgram, InferenceSessionPool) {
        if let found = Self.recognizers.direction.withLock({ $0 }) { return found }
        let program = try models.onnxNetwork(.textDirection).program(height: Self.lineHeight, width: Self.directionInputWidth)
        let entry = (program, InferenceSessionPool(network: program.network))
        Self.recognizers.direction.withLock { $0 = entry }
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
