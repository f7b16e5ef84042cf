/// A target's path with `{name}` placeholders, as declared; `{name=VALUE}` gives a default.
struct PathTemplate {
    private enum Piece {
        case literal(Substring)
        case placeholder(String, default: String?)
    }

    private let pieces: [Piece]

    init(_ path: String) {
        // Built for every call; most paths have no placeholder, and searching characters is slow.
        guard path.containsByte(UInt8(ascii: "{")) else {
            pieces = [.literal(path[...])]
            return
        }
        var pieces: [Piece] = []
        var rest = path[...]
        while let open = rest.firstIndex(of: "{"),
              let close = rest[open...].firstIndex(of: "}"),
              rest.index(after: open) < close {
            pieces.append(.literal(rest[..<open]))
            let inside = rest[rest.index(after: open)..<close]
            if let equals = inside.firstIndex(of: "="), equals != inside.startIndex {
                pieces.append(.placeholder(String(inside[..<equals]), default: String(inside[inside.index(after: equals)...])))
            } else {
                pieces.append(.placeholder(String(inside), default: nil))
            }
            rest = rest[rest.index(after: close)...]
        }
        pieces.append(.literal(rest))
        self.pieces = pieces
    }

    /// The placeholder names in order of appearance.
    var names: [String] {
        pieces.compactMap { piece in
            if case .placeholder(let name, _) = piece { name } else { nil }
        }
    }

    /// The defaults that `{name=VALUE}` placeholders give, by name.
    var defaults: [String: String] {
        var defaults: [String: String] = [:]
        for case .placeholder(let name, let value?) in pieces where defaults[name] == nil { defaults[name] = value }
        return defaults
    }

    /// The path with each placeholder that `value` gives a value for replaced by it, percent-encoded
    /// as one path segment; the others are kept as `{name}`.
    func partlyFilled(_ value: (String) -> String?) -> String {
        pieces.map { piece in
            switch piece {
            case .literal(let text): String(text)
            case .placeholder(let name, _): value(name).map(PercentEncoding.encode) ?? "{\(name)}"
            }
        }.joined()
    }

    /// The path with each placeholder replaced by `value(name)`, percent-encoded as one path segment.
    func filled(_ value: (String) -> String) -> String {
        if pieces.count == 1, case .literal(let text) = pieces[0] { return String(text) }
        return pieces.map { piece in
            switch piece {
            case .literal(let text): String(text)
            case .placeholder(let name, _): PercentEncoding.encode(value(name))
            }
        }.joined()
    }
}
