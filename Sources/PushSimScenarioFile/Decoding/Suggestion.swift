// The one "did you mean" of PushSim: for scenario keys and values, commands and options alike.

/// Suggests the candidate a mistyped word most likely meant.
package enum Suggestion {
    /// The candidate nearest to `word` by edit distance (ties: the first in `candidates`), if
    /// any, and, with `within`, only if at most that many edits away. A candidate that `word`
    /// abbreviates (`expo` → `exponential`, `--rep` → `--repetitions`) counts as nearest: a
    /// truncated name is a commoner slip than an unrelated short one.
    package static func nearest(to word: String, among candidates: [String], within limit: Int? = nil) -> String? {
        // Nothing is near a word this long, and the edit distance would cost |word| × |candidate|.
        guard word.unicodeScalars.count <= 64 else { return nil }
        var best: (String, Int)?
        for candidate in candidates {
            let d = word.count >= 2 && candidate.hasPrefix(word) ? 0 : levenshtein(word, candidate)
            if best == nil || d < best?.1 ?? Int.max { best = (candidate, d) }
        }
        guard let best, best.1 <= limit ?? Int.max else { return nil }
        return best.0
    }

    /// For command and option names, which the user types by heart: a suggestion only when it
    /// is a likely typo (two edits, or a third of the word), not any name at all.
    package static func typo(of word: String, among candidates: [String]) -> String? {
        nearest(to: word, among: candidates, within: max(2, word.count / 3))
    }

    /// Edit distance (insertions, deletions, substitutions), on Unicode scalars.
    package static func levenshtein(_ a: String, _ b: String) -> Int {
        let x = Array(a.unicodeScalars), y = Array(b.unicodeScalars)
        if x.isEmpty { return y.count }
        if y.isEmpty { return x.count }
        var previous = Array(0...y.count)
        var current = previous
        for i in 1...x.count {
            current[0] = i
            for j in 1...y.count {
                let cost = x[i - 1] == y[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
            }
            swap(&previous, &current)
        }
        return previous[y.count]
    }
}
