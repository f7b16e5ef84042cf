/// HTML character references back to characters, for the `htmlUnescape` filter: the named ones
/// bodies use most, and every numeric one (`&#233;`, `&#xE9;`); anything else is left as written.
enum HTMLEntities {
    private static let named: [Substring: String] = [
        "amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'", "nbsp": "\u{A0}",
        "copy": "©", "reg": "®", "hellip": "…", "mdash": "—", "ndash": "–", "euro": "€",
    ]

    static func unescaped(_ text: String) -> String {
        var result = ""
        var rest = text[...]
        while let ampersand = rest.firstIndex(of: "&") {
            result += rest[..<ampersand]
            let after = rest[rest.index(after: ampersand)...]
            // A reference is at most 10 characters before its `;`.
            guard let semicolon = after.prefix(11).firstIndex(of: ";"),
                  let character = character(for: after[..<semicolon]) else {
                result += "&"
                rest = after
                continue
            }
            result += character
            rest = after[after.index(after: semicolon)...]
        }
        return result + rest
    }

    private static func character(for name: Substring) -> String? {
        if let known = named[name] { return known }
        guard name.first == "#" else { return nil }
        let digits = name.dropFirst()
        let value = digits.first == "x" || digits.first == "X" ? UInt32(digits.dropFirst(), radix: 16) : UInt32(digits, radix: 10)
        return value.flatMap(Unicode.Scalar.init).map { String(Character($0)) }
    }
}
