/// Accuracy measures for recognized text.
public enum TextMetrics {
    /// Levenshtein distance between `a` and `b` in characters.
    public static func editDistance(_ a: String, _ b: String) -> Int {
        let x = Array(a), y = Array(b)
        if x.isEmpty { return y.count }
        if y.isEmpty { return x.count }
        var previous = Array(0...y.count), current = [Int](repeating: 0, count: y.count + 1)
        for i in 1...x.count {
            current[0] = i
            for j in 1...y.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (x[i - 1] == y[j - 1] ? 0 : 1))
            }
            swap(&previous, &current)
        }
        return previous[y.count]
    }

    /// Character error rate: edit distance over the reference length, whitespace collapsed.
    public static func characterErrorRate(reference: String, hypothesis: String) -> Double {
        func normalize(_ s: String) -> String { s.split(whereSeparator: \.isWhitespace).joined(separator: " ") }
        let r = normalize(reference), h = normalize(hypothesis)
        return r.isEmpty ? (h.isEmpty ? 0 : 1) : Double(editDistance(r, h)) / Double(r.count)
    }
}
