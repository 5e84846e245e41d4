import KameraCore

/// Accuracy measures for recognized text.
public enum TextMetrics {
    /// Levenshtein distance between `a` and `b` in characters.
    public static func editDistance(_ a: String, _ b: String) -> Int { EditDistance.between(a, b) }

    /// Character error rate: edit distance over the reference length, whitespace collapsed.
    public static func characterErrorRate(reference: String, hypothesis: String) -> Double {
        func normalize(_ s: String) -> String { s.split(whereSeparator: \.isWhitespace).joined(separator: " ") }
        let r = normalize(reference), h = normalize(hypothesis)
        return r.isEmpty ? (h.isEmpty ? 0 : 1) : Double(editDistance(r, h)) / Double(r.count)
    }
}
