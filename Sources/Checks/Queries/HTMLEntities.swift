import Targets
/// HTML character references, for the `htmlEscape` and `htmlUnescape` filters: the named ones
/// bodies use most, and every numeric one (`&#233;`, `&#xE9;`, `&#65` without its `;`) read as
/// HTML5 reads them in text; anything else is left as written.
enum HTMLEntities {
    private static let named: [Substring: String] = [
        "amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'", "nbsp": "\u{A0}",
        "copy": "©", "reg": "®", "hellip": "…", "mdash": "—", "ndash": "–", "euro": "€",
    ]

    /// The names of ``named`` that HTML5 also reads without a `;` (its legacy references):
    /// `&copy 2026` is `© 2026`, `&ampx` is `&x`.
    private static let legacy: [Substring] = ["amp", "copy", "gt", "lt", "nbsp", "quot", "reg"]

    /// `text` with `&`, `<`, `>`, `"` and `'` written as references, as Hurl's `htmlEscape` writes them.
    static func escaped(_ text: String) -> String {
        MarkupEscape.escaped(text, apostrophe: "&#x27;")
    }

    static func unescaped(_ text: String) -> String {
        var result = ""
        var rest = text.unicodeScalars[...]
        while let ampersand = rest.firstIndex(of: "&") {
            result.unicodeScalars += rest[..<ampersand]
            let after = rest[rest.index(after: ampersand)...]
            if let (character, end) = reference(at: after) {
                result += character
                rest = after[end...]
            } else {
                result += "&"
                rest = after
            }
        }
        result.unicodeScalars += rest
        return result
    }

    /// The character a reference after `&` stands for, and where the text after it starts.
    private static func reference(at text: Substring.UnicodeScalarView) -> (String, Substring.UnicodeScalarView.Index)? {
        if text.first == "#" { return numeric(text.dropFirst()) }
        let name = text.prefix(while: isAlphanumeric).prefix(32)
        if name.endIndex < text.endIndex, text[name.endIndex] == ";", let known = named[Substring(name)] {
            return (known, text.index(after: name.endIndex))
        }
        // HTML5 reads the longest legacy name at the start without a `;`.
        for length in stride(from: name.count, through: 2, by: -1) {
            let prefix = Substring(name.prefix(length))
            if legacy.contains(prefix), let known = named[prefix] {
                return (known, name.index(name.startIndex, offsetBy: length))
            }
        }
        return nil
    }

    /// `&#` then decimal digits, or `x` and hex digits, and a `;` if there is one (HTML5, "numeric
    /// character reference end state"): 0, surrogates and numbers past U+10FFFF are U+FFFD, and
    /// 0x80-0x9F are read as windows-1252 writes them; nil when no digit follows.
    private static func numeric(_ text: Substring.UnicodeScalarView) -> (String, Substring.UnicodeScalarView.Index)? {
        let hex = text.first == "x" || text.first == "X"
        let radix: UInt32 = hex ? 16 : 10
        let digits = (hex ? text.dropFirst() : text).prefix { digitValue($0).map { $0 < radix } ?? false }
        guard !digits.isEmpty else { return nil }
        var value: UInt32 = 0
        for digit in digits {
            // Past U+10FFFF the value only needs to stay past it.
            value = min(value * radix + (digitValue(digit) ?? 0), 0x110000)
        }
        var end = digits.endIndex
        if end < text.endIndex, text[end] == ";" { end = text.index(after: end) }
        return (String(character(for: value)), end)
    }

    private static func isAlphanumeric(_ scalar: Unicode.Scalar) -> Bool {
        ("0"..."9").contains(scalar) || ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar)
    }

    /// A hex digit's value; nil for anything else.
    private static func digitValue(_ scalar: Unicode.Scalar) -> UInt32? {
        switch scalar {
        case "0"..."9": scalar.value - 0x30
        case "a"..."f": scalar.value - 0x61 + 10
        case "A"..."F": scalar.value - 0x41 + 10
        default: nil
        }
    }

    /// HTML5's table for references to C1 controls: the windows-1252 character of that byte.
    private static let windows1252: [UInt32: Unicode.Scalar] = [
        0x80: "\u{20AC}", 0x82: "\u{201A}", 0x83: "\u{0192}", 0x84: "\u{201E}", 0x85: "\u{2026}", 0x86: "\u{2020}",
        0x87: "\u{2021}", 0x88: "\u{02C6}", 0x89: "\u{2030}", 0x8A: "\u{0160}", 0x8B: "\u{2039}", 0x8C: "\u{0152}",
        0x8E: "\u{017D}", 0x91: "\u{2018}", 0x92: "\u{2019}", 0x93: "\u{201C}", 0x94: "\u{201D}", 0x95: "\u{2022}",
        0x96: "\u{2013}", 0x97: "\u{2014}", 0x98: "\u{02DC}", 0x99: "\u{2122}", 0x9A: "\u{0161}", 0x9B: "\u{203A}",
        0x9C: "\u{0153}", 0x9E: "\u{017E}", 0x9F: "\u{0178}",
    ]

    private static func character(for value: UInt32) -> Unicode.Scalar {
        if let replaced = windows1252[value] { return replaced }
        guard value != 0, let scalar = Unicode.Scalar(value) else { return "\u{FFFD}" }
        return scalar
    }
}
