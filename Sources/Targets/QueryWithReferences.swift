/// A URL whose query holds a secret from the environment only percent-encoded (`a%2Bb` for `a+b`):
/// the command cannot write `$VAR` inside the URL, where the value would go unencoded, so that
/// pair and every pair after it (to keep their order) are given to the tool as query items of
/// their own, which it encodes (`--url-query`, HTTPie's `==`).
struct QueryWithReferences {
    /// One `name=value` pair of the query, as the URL has it.
    struct Pair {
        var name: String
        /// Nil for a key with no `=`.
        var value: String?
        /// The secret whose encoded value this is.
        var reference: SecretReference?
    }

    /// The URL up to the first moved pair.
    var url: String
    /// The pairs the tool is given as items, in order.
    var moved: [Pair]

    /// Nil when no query value is an encoded reference, or when a moved pair is a bare key and
    /// `bareKeysMove` is false (HTTPie cannot send one).
    init?(url: String, references: [SecretReference], bareKeysMove: Bool = true) {
        guard !references.isEmpty, !url.contains("#"), let question = url.firstIndex(of: "?") else { return nil }
        let query = url[url.index(after: question)...]
        let pairs = query.split(separator: "&", omittingEmptySubsequences: false).map { (text: Substring) -> Pair in
            let equals = text.firstIndex(of: "=")
            let name = String(text[..<(equals ?? text.endIndex)])
            let value: String? = equals.map { String(text[text.index(after: $0)...]) }
            let reference = value.flatMap { value in
                references.first { $0.value != value && PercentEncoding.decode(Substring(value)) == $0.value }
            }
            return Pair(name: name, value: value, reference: reference)
        }
        guard let first = pairs.firstIndex(where: { $0.reference != nil }) else { return nil }
        moved = Array(pairs[first...])
        if !bareKeysMove, moved.contains(where: { $0.value == nil }) { return nil }
        let kept = pairs[..<first].map { $0.name + ($0.value.map { "=" + $0 } ?? "") }
        self.url = String(url[..<question]) + (kept.isEmpty ? "" : "?" + kept.joined(separator: "&"))
    }
}
