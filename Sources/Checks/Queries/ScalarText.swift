/// Text cut by Unicode scalars, as JSON, jq and RFC 9535 see it, not by Swift's characters
/// (grapheme clusters): in `"a\r\nb"` there is a `\n` to split at, in a decomposed `café` an `e`.
enum ScalarText {
    /// The parts of `text` between the occurrences of `separator` (not empty).
    static func split(_ text: String, by separator: String) -> [String] {
        let (whole, cut) = (Array(text.unicodeScalars), Array(separator.unicodeScalars))
        var parts: [String] = []
        var start = 0, index = 0
        while index + cut.count <= whole.count {
            if whole[index..<(index + cut.count)].elementsEqual(cut) {
                parts.append(string(whole[start..<index]))
                index += cut.count
                start = index
            } else {
                index += 1
            }
        }
        parts.append(string(whole[start...]))
        return parts
    }

    private static func string(_ scalars: ArraySlice<Unicode.Scalar>) -> String {
        var text = String.UnicodeScalarView()
        text.append(contentsOf: scalars)
        return String(text)
    }
}
