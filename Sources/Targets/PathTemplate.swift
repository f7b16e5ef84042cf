/// A target's path with `{name}` placeholders, as declared.
struct PathTemplate {
    private enum Piece {
        case literal(Substring)
        case placeholder(String)
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
            pieces.append(.placeholder(String(rest[rest.index(after: open)..<close])))
            rest = rest[rest.index(after: close)...]
        }
        pieces.append(.literal(rest))
        self.pieces = pieces
    }

    /// The placeholder names in order of appearance.
    var names: [String] {
        pieces.compactMap { piece in
            if case .placeholder(let name) = piece { name } else { nil }
        }
    }

    /// The path with each placeholder that `value` gives a value for replaced by it, percent-encoded
    /// as one path segment; the others are kept as `{name}`.
    func partlyFilled(_ value: (String) -> String?) -> String {
        pieces.map { piece in
            switch piece {
            case .literal(let text): String(text)
            case .placeholder(let name): value(name).map(PercentEncoding.encode) ?? "{\(name)}"
            }
        }.joined()
    }

    /// The path with each placeholder replaced by `value(name)`, percent-encoded as one path segment.
    func filled(_ value: (String) -> String) -> String {
        pieces.map { piece in
            switch piece {
            case .literal(let text): String(text)
            case .placeholder(let name): PercentEncoding.encode(value(name))
            }
        }.joined()
    }
}
