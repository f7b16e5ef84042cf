/// Levenshtein distance with adjacent transpositions counted as one edit (optimal string
/// alignment), for did-you-mean suggestions and the mock server's nearest routes.
public enum EditDistance {
    /// The candidate closest to `word`, if it is close enough to be a likely typo.
    public static func closest(to word: String, in candidates: some Sequence<String>) -> String? {
        let target = Array(word.lowercased())
        var best: (String, Int)?
        for candidate in candidates where abs(candidate.count - target.count) <= 3 {
            let distance = between(target, Array(candidate.lowercased()))
            let limit = max(1, min(3, (max(target.count, candidate.count) + 1) / 3))
            if distance <= limit, distance < (best?.1 ?? Int.max) { best = (candidate, distance) }
        }
        return best?.0
    }

    /// The candidate close to `word` as a typo of it (``closest(to:in:)``), leaving out its singular
    /// or plural (`error` beside `errors`, `tags` beside `tag`): an answer has both kinds of names,
    /// and one of them absent is an answer, not a typo. A name that ends in `ss`, `us` or `is`
    /// (`status`, `address`, `class`, `analysis`) is no plural: `statu` and `statuss` are typos of `status`.
    public static func typo(of word: String, in candidates: some Sequence<String>) -> String? {
        let word = word.lowercased()
        return closest(to: word, in: candidates.filter { candidate in
            let other = candidate.lowercased()
            return !isPlural(other, of: word) && !isPlural(word, of: other)
        })
    }

    /// Whether `long` is `short` with `s` or `es`, as a plural is (`tags`, `boxes`), and not a word
    /// that ends so of itself (`status`, `address`).
    static func isPlural(_ long: String, of short: String) -> Bool {
        guard long == short + "s" || long == short + "es" else { return false }
        return !(long.hasSuffix("ss") || long.hasSuffix("us") || long.hasSuffix("is"))
    }

    /// The number of insertions, deletions, substitutions and adjacent swaps that turn `a` into `b`.
    public static func between<C: Equatable>(_ a: [C], _ b: [C]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previousPrevious = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    current[j] = min(current[j], previousPrevious[j - 2] + 1)
                }
            }
            (previousPrevious, previous, current) = (previous, current, previousPrevious)
        }
        return previous[b.count]
    }
}
