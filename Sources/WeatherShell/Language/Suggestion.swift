import Checks

/// Did-you-mean suggestions by edit distance.
enum Suggestion {
    /// The candidate closest to `word`, if it is close enough to be a likely typo.
    static func closest(to word: String, in candidates: some Sequence<String>) -> String? {
        let target = Array(word.lowercased())
        var best: (String, Int)?
        for candidate in candidates where abs(candidate.count - target.count) <= 3 {
            let distance = editDistance(target, Array(candidate.lowercased()))
            let limit = max(1, min(3, (max(target.count, candidate.count) + 1) / 3))
            if distance <= limit, distance < (best?.1 ?? Int.max) { best = (candidate, distance) }
        }
        return best?.0
    }

    /// Levenshtein distance with adjacent transpositions counted as one edit.
    static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        EditDistance.between(a, b)
    }
}
