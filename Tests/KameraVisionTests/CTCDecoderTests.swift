import Foundation
import KameraTestTiers
import Testing

@testable import KameraVision

/// The CTC decoder on hand-made column probabilities, where the right reading is known.
@Suite(.tier(.unit))
struct CTCDecoderTests {
    /// Classes: 0 blank, 1 "a", 2 "b", 3 "c", 4 "中", 5 space.
    static let characters = ["a", "b", "c", "中"]

    /// Columns from (class, probability) pairs: the rest of each column's mass on the blank,
    /// or on "中" when the blank is given (never on the space unless it is given).
    static func columns(_ picks: [[(Int, Float)]]) -> [Float] {
        picks.flatMap { column -> [Float] in
            var values = [Float](repeating: 0, count: 6)
            for (k, probability) in column { values[k] = probability }
            let rest = 1 - column.map(\.1).reduce(0, +)
            let spare = column.contains { $0.0 == 0 } ? 4 : 0
            values[spare] += rest
            return values
        }
    }

    @Test("Greedy: repeats merge, a blank separates a doubled letter, columns are kept")
    func greedy() {
        let decoder = CTCDecoder(characters: Self.characters, script: .all)
        let p = Self.columns([[(1, 0.9)], [(1, 0.9)], [(0, 0.9)], [(1, 0.8)], [(2, 0.7)], [(0, 0.9)]])
        let reading = decoder.greedy(p, columns: 6, classes: 6)
        #expect(reading.text == "aab")
        #expect(reading.characters.map(\.column) == [0, 3, 4])
        #expect(abs(reading.confidence - (0.9 + 0.8 + 0.7) / 3) < 1e-5)
    }

    @Test("A space the model barely saw between two letters is restored; none where it saw none")
    func spaces() {
        let decoder = CTCDecoder(characters: Self.characters, script: .all)
        let gap = Self.columns([[(1, 0.9)], [(0, 0.9), (5, 0.05)], [(2, 0.9)]])
        #expect(decoder.greedy(gap, columns: 3, classes: 6).text == "a b")
        let tight = Self.columns([[(1, 0.9)], [(0, 0.985), (5, 0.001)], [(2, 0.9)]])
        #expect(decoder.greedy(tight, columns: 3, classes: 6).text == "ab")
    }

    @Test("Latin script skips a Chinese character for the best Latin one in its column")
    func latinOnly() {
        let p = Self.columns([[(4, 0.6), (1, 0.3)], [(0, 0.9)]])
        #expect(CTCDecoder(characters: Self.characters, script: .all).greedy(p, columns: 2, classes: 6).text == "中")
        #expect(CTCDecoder(characters: Self.characters, script: .latin).greedy(p, columns: 2, classes: 6).text == "a")
    }

    @Test("The beam search lists the runner-up reading, less confident than the best")
    func candidates() {
        let decoder = CTCDecoder(characters: Self.characters, script: .all)
        let p = Self.columns([[(1, 0.55), (2, 0.4)], [(0, 0.95)]])
        let readings = decoder.candidates(p, columns: 2, classes: 6, limit: 3)
        #expect(readings.map(\.text).prefix(2) == ["a", "b"])
        #expect(readings[1].confidence < readings[0].confidence)
    }

    @Test("The forward algorithm sums every alignment (checked against enumerating them)")
    func likelihood() throws {
        let decoder = CTCDecoder(characters: Self.characters, script: .all)
        let p = Self.columns([[(1, 0.5), (0, 0.3)], [(1, 0.4), (0, 0.4)], [(2, 0.6), (0, 0.2)]])
        // Alignments of "ab" over 3 columns (blank = 0): a a b, a 0 b, a b b, 0 a b, a b 0.
        let paths = [[1, 1, 2], [1, 0, 2], [1, 2, 2], [0, 1, 2], [1, 2, 0]]
        let total = paths.map { path in path.enumerated().map { Double(p[$0.offset * 6 + $0.element]) }.reduce(1, *) }.reduce(0, +)
        let computed = try #require(decoder.logLikelihood(of: "ab", p, columns: 3, classes: 6))
        #expect(abs(computed - log(total)) < 1e-9)
        #expect(decoder.logLikelihood(of: "z", p, columns: 3, classes: 6) == nil)
    }

    @Test("A custom word one edit away replaces a reading the columns hesitate over, not a sure one")
    func customWords() throws {
        let decoder = CTCDecoder(characters: Self.characters, script: .all)
        // "ab ab": the second word's last letter is b (0.55) or c (0.4).
        let unsure = Self.columns([
            [(1, 0.9)], [(2, 0.9)], [(0, 0.5), (5, 0.5)], [(1, 0.9)], [(2, 0.55), (3, 0.4)], [(0, 0.9)],
        ])
        let best = decoder.greedy(unsure, columns: 6, classes: 6)
        #expect(best.text == "ab ab")
        // Only the unsure word changes (the first word's b is sure: no c in its column).
        let preferred = SceneTextReader.preferringCustomWords(best, ["ac"], decoder, unsure, columns: 6, classes: 6)
        #expect(preferred?.text == "ab ac", "\(preferred?.text ?? "nil")")
        let sure = Self.columns([[(1, 0.9)], [(2, 0.99), (3, 0.0001)], [(0, 0.9)]])
        let plain = decoder.greedy(sure, columns: 3, classes: 6)
        #expect(SceneTextReader.preferringCustomWords(plain, ["ac"], decoder, sure, columns: 3, classes: 6) == nil)
    }
}
