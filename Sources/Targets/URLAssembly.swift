import Foundation

/// Builds the URL a target sends from its base, its filled path and its query (see ``Endpoint``).
///
/// - A fragment (`#frag`) in the base or the path is not sent, as a browser and curl send none,
///   and it never swallows the query that follows it.
/// - A query written in the base (`https://x/api?v=2`) or the path stays, and the target's query
///   items follow it: base's, then path's, then the parameters'.
/// - A host name in Unicode (`münchen.de`) is sent in its ASCII form (`xn--mnchen-3ya.de`).
enum URLAssembly {
    /// `base` and `path` joined with one `/`, then `?` and the queries that are not empty, joined with `&`.
    static func url(base: String, path: String, query: String) -> String {
        let (baseStem, baseQuery) = split(base)
        let (pathStem, pathQuery) = split(path)
        var url = InternationalHost.ascii(in: joined(baseStem, pathStem))
        var separator = "?"
        for part in [baseQuery, pathQuery, query[...]] where !part.isEmpty {
            url += separator + part
            separator = "&"
        }
        return url
    }

    /// The text before `?` and the query after it, each without a `#` fragment.
    private static func split(_ text: String) -> (stem: Substring, query: Substring) {
        let utf8 = text.utf8
        guard let mark = utf8.firstIndex(where: { $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") }) else {
            return (text[...], "")
        }
        let stem = text[..<mark]
        guard utf8[mark] == UInt8(ascii: "?") else { return (stem, "") }
        let afterMark = utf8.index(after: mark)
        let end = utf8[afterMark...].firstIndex(of: UInt8(ascii: "#")) ?? utf8.endIndex
        return (stem, text[afterMark..<end])
    }

    /// `base` and `path` with exactly one `/` between them.
    private static func joined(_ base: Substring, _ path: Substring) -> String {
        guard !path.isEmpty else { return String(base) }
        switch (base.utf8.last == UInt8(ascii: "/"), path.utf8.first == UInt8(ascii: "/")) {
        case (true, true): return String(base) + path.dropFirst()
        case (false, false): return String(base) + "/" + path
        default: return String(base) + path
        }
    }
}

/// Host names in Unicode written in their ASCII form (IDNA): each label that is not ASCII
/// becomes `xn--` and its Punycode, after Unicode normalization (NFC) and lower-casing.
enum InternationalHost {
    /// `url` with its host in ASCII; unchanged when the host is ASCII already, or when a label cannot be converted.
    static func ascii(in url: String) -> String {
        guard !url.utf8.allSatisfy({ $0 < 0x80 }), let scheme = url.range(of: "://") else { return url }
        let authorityEnd = url[scheme.upperBound...].firstIndex(where: { $0 == "/" || $0 == "?" || $0 == "#" }) ?? url.endIndex
        var hostStart = scheme.upperBound
        if let at = url[hostStart..<authorityEnd].lastIndex(of: "@") { hostStart = url.index(after: at) }
        let host = url[hostStart..<authorityEnd]
        guard !host.hasPrefix("["), !host.utf8.allSatisfy({ $0 < 0x80 }) else { return url }
        let portStart = host.lastIndex(of: ":") ?? host.endIndex
        guard let converted = asciiName(String(host[..<portStart])) else { return url }
        return String(url[..<hostStart]) + converted + String(url[portStart...])
    }

    /// The ASCII form of a host name; nil when a label cannot be converted.
    static func asciiName(_ name: String) -> String? {
        // IDNA's label separators: the full stop and its ideographic and full-width forms.
        let labels = name.precomposedStringWithCanonicalMapping.lowercased()
            .split(omittingEmptySubsequences: false, whereSeparator: { "\u{2E}\u{3002}\u{FF0E}\u{FF61}".contains($0) })
        var converted: [String] = []
        for label in labels {
            if label.utf8.allSatisfy({ $0 < 0x80 }) {
                converted.append(String(label))
            } else {
                // A DNS label holds at most 63 octets, and each code point takes at least one in Punycode:
                // a longer label cannot be a host name (and the encoder's time grows with its square).
                guard label.unicodeScalars.count <= 63, let encoded = Punycode.encode(String(label)) else { return nil }
                converted.append("xn--" + encoded)
            }
        }
        return converted.joined(separator: ".")
    }
}
