import Foundation

/// The names of `a=1&b=2` items, as a query string or a url-encoded form body carries them.
enum FormItems {
    /// The decoded names present (`+` is a space), each once.
    static func names(in text: Substring) -> Set<String> {
        Set(items(in: text).map(\.name))
    }

    /// The decoded items in order; an item without `=` has an empty value.
    static func items(in text: Substring) -> [(name: String, value: String)] {
        text.split(separator: "&", omittingEmptySubsequences: true).map { item in
            let parts = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            return (decoded(parts[0]), parts.count > 1 ? decoded(parts[1]) : "")
        }
    }

    private static func decoded(_ text: Substring) -> String {
        let spaced = text.replacingOccurrences(of: "+", with: " ")
        return spaced.removingPercentEncoding ?? spaced
    }
}
