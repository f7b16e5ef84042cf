/// Text compared and cut by Unicode scalars, as JSON, jq and RFC 9535 see it, not by Swift's
/// characters (grapheme clusters): in `"a\r\nb"` there is a `\n` to split at, in a decomposed
/// `café` an `e`, and the Kelvin sign is not `K`.
public enum ScalarText {
    /// Whether `left` and `right` are the same scalars (no normalization: a decomposed `é` is not
    /// the composed one).
    public static func equal(_ left: String, _ right: String) -> Bool {
        left.unicodeScalars.elementsEqual(right.unicodeScalars)
    }

    /// A string as a set's or a dictionary's key that compares by Unicode scalars, as
    /// ``equal(_:_:)`` does: Swift's `String` hashes canonically equivalent strings as one.
    public struct Key: Hashable, Sendable {
        /// The string's UTF-8 bytes, the same exactly when its scalars are.
        public let utf8: [UInt8]

        /// The key of `text`.
        public init(_ text: String) { utf8 = Array(text.utf8) }
    }

    /// Whether `text` starts with `prefix`.
    public static func starts(_ text: String, with prefix: String) -> Bool {
        text.unicodeScalars.starts(with: prefix.unicodeScalars)
    }

    /// Whether `text` ends with `suffix`.
    public static func ends(_ text: String, with suffix: String) -> Bool {
        text.unicodeScalars.reversed().starts(with: suffix.unicodeScalars.reversed())
    }

    /// Whether `text` holds `part` (every text holds "").
    public static func holds(_ text: String, _ part: String) -> Bool {
        occurrence(of: Array(part.unicodeScalars), in: Array(text.unicodeScalars), from: 0) != nil
    }

    /// The parts of `text` between the occurrences of `separator` (not empty).
    static func split(_ text: String, by separator: String) -> [String] {
        let (whole, cut) = (Array(text.unicodeScalars), Array(separator.unicodeScalars))
        var parts: [String] = []
        var start = 0
        while let found = occurrence(of: cut, in: whole, from: start) {
            parts.append(string(whole[start..<found]))
            start = found + cut.count
        }
        parts.append(string(whole[start...]))
        return parts
    }

    /// Where `part` first stands in `whole` at or after `start`.
    private static func occurrence(of part: [Unicode.Scalar], in whole: [Unicode.Scalar], from start: Int) -> Int? {
        guard start + part.count <= whole.count else { return nil }
        return (start...(whole.count - part.count)).first { whole[$0..<($0 + part.count)].elementsEqual(part) }
    }

    private static func string(_ scalars: ArraySlice<Unicode.Scalar>) -> String {
        var text = String.UnicodeScalarView()
        text.append(contentsOf: scalars)
        return String(text)
    }
}
