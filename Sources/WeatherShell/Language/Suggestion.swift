import Checks

/// Did-you-mean suggestions by edit distance.
enum Suggestion {
    /// The candidate closest to `word`, if it is close enough to be a likely typo.
    static func closest(to word: String, in candidates: some Sequence<String>) -> String? {
        EditDistance.closest(to: word, in: candidates)
    }

    /// Levenshtein distance with adjacent transpositions counted as one edit.
    static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        EditDistance.between(a, b)
    }
}
