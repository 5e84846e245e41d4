import Foundation

/// Reads text out of a CTC recognizer's per-column class probabilities (PP-OCR's SVTR: class
/// 0 is the blank, class i ≥ 1 is `characters[i − 1]`, the last class a space).
///
/// Beyond RapidOCR's greedy reading it keeps where each character was read (so words and
/// characters get boxes), restores spaces the model left out (PP-OCR's Chinese-trained
/// recognizer drops most spaces between English words: a gap whose columns hold some
/// probability of a space is one), reads only the characters of the languages asked for,
/// lists alternative readings with a prefix beam search, and scores any string against the
/// columns (the forward algorithm), which `customWords` use.
struct CTCDecoder: Sendable {
    /// One character read: its text, the column it was read in and its probability there.
    struct Character: Sendable, Equatable {
        var text: String
        var column: Int
        var probability: Float
    }

    /// A reading of a line: its characters in order and a confidence (0…1).
    struct Reading: Sendable {
        var characters: [Character]
        var confidence: Float
        var text: String { characters.map(\.text).joined() }
    }

    /// Which characters may be read.
    enum Script: Sendable, Equatable {
        /// Every character of the model (Chinese, Latin, symbols).
        case all
        /// Latin letters, digits, ASCII punctuation and the typographic marks signs use.
        case latin
    }

    /// A gap between two characters whose columns give a space at least this probability
    /// holds a space (tuned on the text pages and the tuning signs; see bench/README.md).
    static let spaceEvidence: Float = 0.02
    /// Marks outside ASCII that Latin-script text uses.
    static let latinExtras: Set<String> = ["’", "‘", "“", "”", "—", "…", "°", "±", "×", "÷", "·", "€", "£", "¥", "§", "®", "™", "•"]
    static let latinLetters: Set<String> = ["é", "è", "ä", "ü", "á", "í", "ó", "ò", "ú", "à", "ì", "É", "Ü", "Ó"]

    let characters: [String]
    /// Per class (blank and space included): may it be read?
    let allowed: [Bool]
    /// Characters' classes, for scoring a given string.
    let classes: [String: Int]

    var spaceClass: Int { characters.count + 1 }

    init(characters: [String], script: Script) {
        self.characters = characters
        var allowed =
            [true]
            + characters.map { character in
                switch script {
                case .all: true
                case .latin:
                    character.unicodeScalars.allSatisfy { (0x20...0x7E).contains($0.value) }
                        || Self.latinExtras.contains(character) || Self.latinLetters.contains(character)
                }
            }
        allowed.append(true)  // the space
        self.allowed = allowed
        var classes: [String: Int] = [" ": characters.count + 1]
        for (index, character) in characters.enumerated() where classes[character] == nil { classes[character] = index + 1 }
        self.classes = classes
    }

    /// The best allowed class in each column, repeats merged, blanks dropped, spaces restored
    /// in gaps that hold enough of one; its confidence is the mean of the characters'
    /// probabilities (RapidOCR's).
    func greedy(_ p: [Float], columns: Int, classes count: Int) -> Reading {
        var read: [Character] = []
        var previous = 0
        for column in 0..<columns {
            let base = column * count
            var (best, score) = (0, -Float.infinity)
            for k in 0..<count where k < allowed.count && allowed[k] && p[base + k] > score { (best, score) = (k, p[base + k]) }
            if best != 0, best != previous {
                read.append(Character(text: text(of: best), column: column, probability: score))
            }
            previous = best
        }
        let confidence = read.isEmpty ? 0 : read.map(\.probability).reduce(0, +) / Float(read.count)
        return Reading(characters: restoringSpaces(read, p, classes: count), confidence: confidence)
    }

    /// Up to `count` readings, best first: the greedy reading, then the prefix beam search's
    /// others, each with the greedy confidence scaled by its probability against the best's.
    func candidates(_ p: [Float], columns: Int, classes count: Int, limit: Int) -> [Reading] {
        let best = greedy(p, columns: columns, classes: count)
        guard limit > 1 else { return [best] }
        let beams = beamSearch(p, columns: columns, classes: count, width: max(8, 2 * limit))
        guard let top = beams.first else { return [best] }
        var readings = [best]
        for beam in beams where readings.count < limit {
            let reading = Reading(
                characters: restoringSpaces(beam.characters, p, classes: count),
                confidence: best.confidence * Float(exp(min(0, beam.logProbability - top.logProbability))))
            if !readings.contains(where: { $0.text == reading.text }) { readings.append(reading) }
        }
        return readings
    }

    /// log P(text | columns) summed over every alignment (CTC's forward algorithm); nil when
    /// the text holds a character the model does not have.
    func logLikelihood(of text: String, _ p: [Float], columns: Int, classes count: Int) -> Double? {
        var labels: [Int] = []
        for character in text {
            guard let label = classes[String(character)], label < count else { return nil }
            labels.append(label)
        }
        // Extended labels: blank, l1, blank, l2, …, blank.
        let extended = [0] + labels.flatMap { [$0, 0] }
        func logOf(_ value: Float) -> Double { log(max(Double(value), 1e-30)) }
        var alpha = [Double](repeating: -.infinity, count: extended.count)
        for column in 0..<columns {
            let base = column * count
            var next = [Double](repeating: -.infinity, count: extended.count)
            for s in extended.indices {
                var terms = [column == 0 && s <= 1 ? 0 : -Double.infinity]
                if column > 0 {
                    terms.append(alpha[s])
                    if s >= 1 { terms.append(alpha[s - 1]) }
                    if s >= 2, extended[s] != 0, extended[s] != extended[s - 2] { terms.append(alpha[s - 2]) }
                }
                let peak = terms.max()!
                guard peak > -.infinity else { continue }
                next[s] = peak + log(terms.map { exp($0 - peak) }.reduce(0, +)) + logOf(p[base + extended[s]])
            }
            alpha = next
        }
        let ends = [alpha.last!, extended.count > 1 ? alpha[extended.count - 2] : -.infinity]
        let peak = ends.max()!
        return peak == -.infinity ? -.infinity : peak + log(ends.map { exp($0 - peak) }.reduce(0, +))
    }

    // MARK: Steps

    private func text(of label: Int) -> String { label - 1 < characters.count ? characters[label - 1] : " " }

    /// Inserts a space between two characters when a column between them (or either's own)
    /// gives the space class at least `spaceEvidence`; never two spaces in a row.
    private func restoringSpaces(_ read: [Character], _ p: [Float], classes count: Int) -> [Character] {
        guard spaceClass < count else { return read }
        var out: [Character] = []
        for character in read {
            if let last = out.last, last.text != " ", character.text != " ", character.column > last.column {
                var evidence: Float = 0
                for column in last.column...character.column { evidence = max(evidence, p[column * count + spaceClass]) }
                if evidence >= Self.spaceEvidence {
                    out.append(Character(text: " ", column: (last.column + character.column) / 2, probability: evidence))
                }
            }
            out.append(character)
        }
        return out
    }

    private struct Beam {
        var labels: [Int] = []
        var characters: [Character] = []
        /// log P of the prefix ending in a blank, and ending in its last label.
        var blank = 0.0, label = -Double.infinity
        var logProbability: Double { Self.add(blank, label) }

        static func add(_ a: Double, _ b: Double) -> Double {
            let peak = max(a, b)
            return peak == -.infinity ? peak : peak + log(exp(a - peak) + exp(b - peak))
        }
    }

    /// CTC prefix beam search over the allowed classes, each column pruned to its classes of
    /// probability ≥ 0.001 (at most eight).
    private func beamSearch(_ p: [Float], columns: Int, classes count: Int, width: Int) -> [Beam] {
        var beams = [Beam()]
        for column in 0..<columns {
            let base = column * count
            var options: [(Int, Float)] = []
            for k in 1..<count where k < allowed.count && allowed[k] && p[base + k] >= 0.001 { options.append((k, p[base + k])) }
            options = Array(options.sorted { $0.1 > $1.1 }.prefix(8))
            let blankLog = log(max(Double(p[base]), 1e-30))
            var next: [[Int]: Beam] = [:]
            func merge(_ beam: Beam) {
                if var existing = next[beam.labels] {
                    existing.blank = Beam.add(existing.blank, beam.blank)
                    existing.label = Beam.add(existing.label, beam.label)
                    next[beam.labels] = existing
                } else {
                    next[beam.labels] = beam
                }
            }
            for beam in beams {
                // Stays as it is: a blank, or its last label repeated.
                var same = beam
                same.blank = beam.logProbability + blankLog
                same.label = -.infinity
                if let last = beam.labels.last { same.label = beam.label + log(max(Double(p[base + last]), 1e-30)) }
                merge(same)
                for (k, probability) in options {
                    var extended = beam
                    let logP = log(Double(probability))
                    // A repeat of the last label extends only after a blank.
                    let from = beam.labels.last == k ? beam.blank : beam.logProbability
                    extended.labels.append(k)
                    extended.characters.append(Character(text: text(of: k), column: column, probability: probability))
                    (extended.blank, extended.label) = (-.infinity, from + logP)
                    merge(extended)
                }
            }
            beams = Array(next.values.sorted { $0.logProbability > $1.logProbability }.prefix(width))
        }
        return beams
    }
}
