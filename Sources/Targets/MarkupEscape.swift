/// Text with `& < > "` and `'` written as XML's and HTML's character references, the one escape
/// behind a `body` template's XML, the `htmlEscape` filter and the masking of secrets so escaped.
public enum MarkupEscape {
    /// `text` escaped, `'` written as `apostrophe` (`&#39;`, `&apos;` or, as Hurl's `htmlEscape`, `&#x27;`).
    public static func escaped(_ text: String, apostrophe: String = "&#39;") -> String {
        var escaped = ""
        escaped.reserveCapacity(text.utf8.count)
        for character in text {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "'": escaped += apostrophe
            default: escaped.append(character)
            }
        }
        return escaped
    }
}
