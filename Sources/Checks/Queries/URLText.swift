import Targets

/// Percent-encoding for the `urlEncode` and `urlQueryParam` filters.
enum URLText {
    /// `text` with every UTF-8 byte percent-encoded (`%3A`, upper-case digits) except RFC 3986's
    /// unreserved characters (`A-Z a-z 0-9 - . _ ~`) and `/`, which Hurl's `urlEncode` keeps too.
    static func encoded(_ text: String) -> String {
        PercentEncoding.encode(text, keeping: [UInt8(ascii: "/")])
    }

    /// The value of the first parameter called `name` in the query of `url` (the text between the
    /// first `?` and a `#`), both read as a form reads them: `+` is a space and `%XX` a byte of
    /// UTF-8 (bytes that are not UTF-8 become U+FFFD); a parameter without `=` has the value "".
    /// Nil when there is no such parameter, or no query.
    static func queryParameter(_ name: String, in url: String) -> String? {
        guard let question = url.firstIndex(of: "?") else { return nil }
        let query = url[url.index(after: question)...].prefix { $0 != "#" }
        for pair in query.split(separator: "&", omittingEmptySubsequences: true) {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard PercentEncoding.decode(parts[0]) == name else { continue }
            return parts.count > 1 ? PercentEncoding.decode(parts[1]) : ""
        }
        return nil
    }
}
