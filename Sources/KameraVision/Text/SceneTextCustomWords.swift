import KameraCore

/// Vision's `customWords` on the scene reader: words preferred where the image nearly
/// supports them, scored by CTC's forward algorithm over the recognizer's columns.
extension SceneTextReader {
    /// How much less likely (natural log of the probability ratio) a line with a custom word
    /// may be than the best reading and still replace it: 4 is about 55 times. On a clean
    /// print every one-letter change scores −7 or lower, so custom words do not overrule
    /// what the model is sure of; they decide where it hesitates.
    static let customWordMargin = 4.0

    /// The best reading with each word that lies within an edit or two of a custom word
    /// replaced by it, when the columns support the changed line within `customWordMargin`
    /// of the best; nil when nothing changes.
    static func preferringCustomWords(
        _ best: CTCDecoder.Reading, _ customWords: [String], _ decoder: CTCDecoder, _ p: [Float], columns: Int, classes: Int
    ) -> CTCDecoder.Reading? {
        var words = best.text.split(separator: " ", omittingEmptySubsequences: false).map(String.init)
        guard
            let baseline = decoder.logLikelihood(
                of: best.text.replacingOccurrences(of: " ", with: ""), p, columns: columns, classes: classes)
        else { return nil }
        var changed = false
        for (index, word) in words.enumerated() where !word.isEmpty {
            let near = customWords.filter { custom in
                custom != word && EditDistance.between(custom.lowercased(), word.lowercased()) <= (custom.count >= 8 ? 2 : 1)
            }
            for custom in near {
                var trial = words
                trial[index] = custom
                guard
                    let score = decoder.logLikelihood(
                        of: trial.joined().replacingOccurrences(of: " ", with: ""), p, columns: columns, classes: classes),
                    score >= baseline - customWordMargin
                else { continue }
                words = trial
                changed = true
                break
            }
        }
        guard changed else { return nil }
        // Characters keep the best reading's columns where the lengths allow; the text is the new one.
        let text = words.joined(separator: " ")
        var characters: [CTCDecoder.Character] = []
        for (i, character) in text.enumerated() {
            let source = best.characters[min(i * best.characters.count / max(text.count, 1), best.characters.count - 1)]
            characters.append(CTCDecoder.Character(text: String(character), column: source.column, probability: source.probability))
        }
        return CTCDecoder.Reading(characters: characters, confidence: best.confidence)
    }
}
