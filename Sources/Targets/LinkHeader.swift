import Foundation

/// The links of `Link` header fields (RFC 8288, section 3): `<URI>; rel="next"; title="a, b", <URI>; rel=last`.
/// Several links in one field or in several fields, parameters quoted or not, `rel` holding several
/// space-separated relation types.
public struct LinkHeader: Sendable, Equatable {
    /// One link: its target as written (possibly relative) and its parameters, names lowercased.
    public struct Link: Sendable, Equatable {
        public var target: String
        public var parameters: [(name: String, value: String)]

        /// The relation types of `rel`, lowercased.
        public var relations: [String] {
            parameters.first { $0.name == "rel" }.map { $0.value.lowercased().split(separator: " ").map(String.init) } ?? []
        }

        public static func == (lhs: Link, rhs: Link) -> Bool {
            lhs.target == rhs.target && lhs.parameters.elementsEqual(rhs.parameters) { $0.name == $1.name && $0.value == $1.value }
        }
    }

    /// The links, in the order of the fields and within each field.
    public var links: [Link]

    /// Parses the values of every `Link` field; a malformed link is skipped, the rest are kept.
    public init(fields: [String]) {
        links = fields.flatMap(Self.parse)
    }

    /// The target of the first link whose `rel` holds `relation`, resolved against `base`.
    public func target(relation: String, base: String) -> String? {
        guard let link = links.first(where: { $0.relations.contains(relation.lowercased()) }) else { return nil }
        return Self.resolve(link.target, against: base)
    }

    /// `reference` resolved against the absolute URL `base` (RFC 3986, section 5).
    public static func resolve(_ reference: String, against base: String) -> String? {
        guard let baseURL = URL(string: base), let resolved = URL(string: reference, relativeTo: baseURL) else { return nil }
        return resolved.absoluteString
    }

    private static func parse(_ field: String) -> [Link] {
        var scanner = LinkScanner(Array(field.unicodeScalars))
        var links: [Link] = []
        while !scanner.atEnd {
            scanner.skip { $0 == "," || $0 == " " || $0 == "\t" }
            guard scanner.take("<") else {
                scanner.skip { $0 != "," }
                continue
            }
            let target = scanner.read { $0 != ">" }
            guard scanner.take(">") else { break }
            var parameters: [(name: String, value: String)] = []
            while true {
                scanner.skip { $0 == " " || $0 == "\t" }
                guard scanner.take(";") else { break }
                scanner.skip { $0 == " " || $0 == "\t" }
                let name = scanner.read { $0 != "=" && $0 != ";" && $0 != "," && $0 != " " }.lowercased()
                scanner.skip { $0 == " " || $0 == "\t" }
                var value = ""
                if scanner.take("=") {
                    scanner.skip { $0 == " " || $0 == "\t" }
                    value = scanner.take("\"") ? scanner.quotedRest() : scanner.read { $0 != ";" && $0 != "," && $0 != " " }
                }
                // RFC 8288, 3.3: only the first `rel` counts.
                if !name.isEmpty, name != "rel" || !parameters.contains(where: { $0.name == "rel" }) {
                    parameters.append((name, value))
                }
            }
            links.append(Link(target: target, parameters: parameters))
        }
        return links
    }
}

/// Reads a `Link` field one character at a time; it only moves forward, so parsing ends.
private struct LinkScanner {
    private let scalars: [Unicode.Scalar]
    private var index = 0

    init(_ scalars: [Unicode.Scalar]) {
        self.scalars = scalars
    }

    var atEnd: Bool { index >= scalars.count }

    mutating func take(_ scalar: Unicode.Scalar) -> Bool {
        guard !atEnd, scalars[index] == scalar else { return false }
        index += 1
        return true
    }

    mutating func skip(while predicate: (Unicode.Scalar) -> Bool) {
        while !atEnd, predicate(scalars[index]) { index += 1 }
    }

    mutating func read(while predicate: (Unicode.Scalar) -> Bool) -> String {
        var text = String.UnicodeScalarView()
        while !atEnd, predicate(scalars[index]) {
            text.append(scalars[index])
            index += 1
        }
        return String(text)
    }

    /// The rest of a quoted string whose opening quote was taken: `\x` is `x`; the closing quote is taken.
    mutating func quotedRest() -> String {
        var text = String.UnicodeScalarView()
        while !atEnd {
            let scalar = scalars[index]
            index += 1
            if scalar == "\"" { break }
            if scalar == "\\", !atEnd {
                text.append(scalars[index])
                index += 1
                continue
            }
            text.append(scalar)
        }
        return String(text)
    }
}
