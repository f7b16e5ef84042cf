import Foundation

/// Every form in which a request, or a server echoing it, can show a secret value: the one place
/// that knows them, for ``SecretSet`` and so for every masker.
public enum SecretForms {
    /// Values shorter than this are not masked by value: masking every `1` would garble all text.
    public static let minimumLength = 3

    /// `value` as it is, and as it looks:
    /// - percent-encoded as a path segment, query value or form field (``PercentEncoding/encode(_:)``),
    ///   with upper and lower case hex, and with `+` for a space as HTML forms write it;
    /// - written into a URL with only the characters a URL cannot hold escaped, as the Endpoint does
    ///   with a base or path that holds a variable, upper and lower case hex;
    /// - percent-encoded with the characters a query may hold left as they are (`/:@!$'()*,;?`), or
    ///   `/` alone, as servers that echo a URL re-encode its query;
    /// - JSON-escaped inside a string literal (see ``jsonForms(_:)``);
    /// - as an IRI writes it in a query or a path (only `% # & + =` and `? #`, spaces and control
    ///   characters escaped), as it is and JSON-escaped, as httpbin echoes the URL it was sent;
    /// - escaped for XML and HTML, as a `body` template writes a variable into XML (`&amp;`, `&lt;`,
    ///   `&gt;`, `&quot;`, and `'` as `&#39;`, `&apos;` or `&#x27;`);
    /// - when it is not ASCII, its UTF-8 bytes read as ISO-8859-1 (`hé` as `hÃ©`), as it is and
    ///   JSON-escaped, as a server that reads header bytes so echoes it;
    /// - base64-encoded, standard and URL-safe, whole or inside a longer text encoded whole
    ///   (``base64Forms(_:)``);
    /// - as a host name in ASCII (`xn--` and Punycode), when it is not ASCII.
    ///
    /// Without `base64`, only a `USER:PASSWORD`'s whole base64 is among them. Empty for a value
    /// shorter than ``minimumLength``; no form appears twice.
    public static func of(_ value: String, base64: Bool = true) -> [String] {
        guard value.count >= minimumLength else { return [] }
        // Every encoding below but base64 leaves such a value as it is (most tokens and keys): an
        // answer that issues thousands of tokens makes them secrets in one go.
        if value.utf8.allSatisfy(isUnreserved) { return [value] + (base64 ? base64Forms(value) : []) }
        let percent = PercentEncoding.encode(value)
        // As a URL holds it after its host, where `[` and `]` are escaped too.
        let afterHost = "http://h/"
        let inURL = String(PercentEncoding.encodeIllegalURLCharacters(afterHost + value).dropFirst(afterHost.count))
        let form = percent.replacingOccurrences(of: "%20", with: "+")
        // A server that echoes the URL re-encodes its query: httpbin (werkzeug) leaves `/` and `:`
        // as they are, Python's `quote` leaves `/`.
        let requery = PercentEncoding.encode(value, keeping: PercentEncoding.queryValueCharacters)
        let slashKept = PercentEncoding.encode(value, keeping: [UInt8(ascii: "/")])
        // As a variable is written into a URL's segment or query value, its own escapes kept.
        let segment = PercentEncoding.encode(value, keeping: [UInt8(ascii: "/")], keepingEscapes: true)
        let queryValue = PercentEncoding.encode(value, keeping: PercentEncoding.queryValueCharacters, keepingEscapes: true)
        var forms = [value]
        for encoded in [percent, form, inURL, requery, slashKept, segment, queryValue] {
            forms += [encoded, lowercasingEscapes(encoded)]
        }
        forms += jsonForms(value)
        // A URL echoed as an IRI (werkzeug's `request.url`, which httpbin echoes): only what would
        // change the URL's reading stays escaped, `"` and `é` come back as they are, and then
        // JSON-escaped in the answer (`ab%3Dc\"d`, `ab%2Bc/d\u00e9`).
        for iri in [PercentEncoding.encode(value, escapingOnly: iriQueryEscaped), PercentEncoding.encode(value, escapingOnly: iriPathEscaped)] {
            forms += [iri, lowercasingEscapes(iri)] + jsonForms(iri)
        }
        forms += markupForms(value)
        // A server that reads a header's bytes as ISO-8859-1 (RFC 9110 5.5; a WSGI server such as
        // httpbin's does) echoes UTF-8 `é` as `Ã©`: that reading too, as it is and JSON-escaped.
        if value.utf8.contains(where: { $0 >= 0x80 }) {
            var latin1 = ""
            latin1.unicodeScalars.append(contentsOf: value.utf8.map { Unicode.Scalar($0) })
            forms += [latin1] + jsonForms(latin1)
        }
        // A host name in Unicode is sent, and named in errors, in its ASCII form (xn--…).
        // Only a form that has a Punycode label: normalizing can fold a value to plain ASCII (the
        // Kelvin sign is `K`), which would mask every `key` in the text.
        if couldBeUnicodeHost(value), let host = InternationalHost.asciiName(value), host.contains("xn--") {
            forms.append(host)
        }
        if base64 {
            forms += base64Forms(value)
        } else if value.contains(":") {
            // A `USER:PASSWORD` as `Authorization: Basic` sends it.
            forms += wholeBase64(Array(value.utf8))
        }
        var seen: Set<String> = []
        return forms.filter { seen.insert($0).inserted }
    }

    /// For a value of 6 bytes or more, or a `USER:PASSWORD` as `Authorization: Basic` encodes it:
    /// the value in base64, standard and URL-safe, with and without its padding (a server's echo of
    /// it), and the characters that only its bytes make at each of the three places it can start in
    /// a longer text encoded whole (`Bearer VALUE`, a JSON document in base64). A shorter value's
    /// base64 is too short to mask wherever it stands.
    private static func base64Forms(_ value: String) -> [String] {
        let bytes = Array(value.utf8)
        guard bytes.count >= 6 || value.contains(":") else { return [] }
        var forms = wholeBase64(bytes)
        if bytes.count >= 6 {
            for offset in 0..<3 {
                let encoded = Array(Data(Array(repeating: 0, count: offset) + bytes).base64EncodedString().utf8)
                // Characters of 6 bits each: those after the offset's bits, and before the value's end.
                let first = (8 * offset + 5) / 6
                let last = 8 * (offset + bytes.count) / 6
                forms.append(String(decoding: encoded[first..<last], as: UTF8.self))
            }
        }
        let urlSafe = forms.map { $0.replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_") }
        var seen: Set<String> = []
        return (forms + urlSafe).filter { seen.insert($0).inserted }
    }

    /// `bytes` in base64, with its padding and without (as some servers echo it).
    private static func wholeBase64(_ bytes: [UInt8]) -> [String] {
        let whole = Data(bytes).base64EncodedString()
        return [whole, String(whole.reversed().drop { $0 == "=" }.reversed())]
    }

    /// `value` with `& < > "` and `'` as XML's and HTML's references, each spelling of `'`; none
    /// when it holds none of them.
    private static func markupForms(_ value: String) -> [String] {
        guard value.contains(where: { "&<>\"'".contains($0) }) else { return [] }
        return ["&#39;", "&apos;", "&#x27;"].map { MarkupEscape.escaped(value, apostrophe: $0) }
    }

    /// Whether `byte` is one that no URL, form, JSON or markup encoding changes: a letter or digit
    /// of ASCII, `-`, `.`, `_` or `~` (RFC 3986's unreserved characters).
    private static func isUnreserved(_ byte: UInt8) -> Bool {
        byte | 0x20 >= UInt8(ascii: "a") && byte | 0x20 <= UInt8(ascii: "z") || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
            || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "~")
    }

    /// Whether `value` has characters beyond ASCII and, of ASCII, only those of host names.
    private static func couldBeUnicodeHost(_ value: String) -> Bool {
        var hasUnicode = false
        for byte in value.utf8 {
            if byte >= 0x80 {
                hasUnicode = true
            } else if !(byte | 0x20 >= UInt8(ascii: "a") && byte | 0x20 <= UInt8(ascii: "z")
                        || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")) {
                return false
            }
        }
        return hasUnicode
    }

    /// What an IRI keeps escaped in a query value: what would end or split it, `%` and `+`.
    private static let iriQueryEscaped = Set("%#&+=".utf8)
    /// What an IRI keeps escaped in a path: what would end it.
    private static let iriPathEscaped = Set("?#".utf8)

    /// The inside of a JSON string holding `value`: as ``JSONValue/quoted(_:)`` writes it, with `/`
    /// written `\/` (as PHP does), and with every non-ASCII character as `\u` escapes in lower or
    /// upper case hex (as Python's and Java's encoders do).
    static func jsonForms(_ value: String) -> [String] {
        let plain = String(JSONValue.quoted(value).dropFirst().dropLast())
        let slashed = plain.replacingOccurrences(of: "/", with: "\\/")
        return [plain, slashed].flatMap { [$0, asciiEscaped($0, uppercase: false), asciiEscaped($0, uppercase: true)] }
    }

    /// `text` with each non-ASCII character as `\uXXXX` (a UTF-16 surrogate pair above U+FFFF).
    private static func asciiEscaped(_ text: String, uppercase: Bool) -> String {
        guard !text.utf8.allSatisfy({ $0 < 0x80 }) else { return text }
        var escaped = ""
        for unit in text.utf16 {
            if unit < 0x80, let scalar = Unicode.Scalar(unit) {
                escaped.unicodeScalars.append(scalar)
            } else {
                let hex = String(unit, radix: 16, uppercase: uppercase)
                escaped += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            }
        }
        return escaped
    }

    /// `%C3%84` as `%c3%84`: the same bytes as a server that writes lower case hex shows them.
    private static func lowercasingEscapes(_ encoded: String) -> String {
        guard encoded.contains("%") else { return encoded }
        var result = ""
        var hexLeft = 0
        for scalar in encoded.unicodeScalars {
            if hexLeft > 0 {
                result.unicodeScalars.append(contentsOf: String(scalar).lowercased().unicodeScalars)
                hexLeft -= 1
            } else {
                result.unicodeScalars.append(scalar)
                if scalar == "%" { hexLeft = 2 }
            }
        }
        return result
    }
}
