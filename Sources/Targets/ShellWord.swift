/// One word of a POSIX shell command line: literal text and references to environment variables,
/// quoted so that `sh` reads it back as exactly that text, whatever bytes the text holds.
public struct ShellWord: Sendable, Equatable {
    /// A run of literal text, or an environment variable whose value the shell puts in its place.
    public enum Piece: Sendable, Equatable {
        case text(String)
        case variable(String)
    }

    /// The pieces, in order.
    public var pieces: [Piece]

    /// A word of literal text.
    public init(_ text: String) {
        pieces = [.text(text)]
    }

    /// A word made of `pieces`.
    public init(pieces: [Piece]) {
        self.pieces = pieces
    }

    /// Whether the word refers to an environment variable.
    public var hasVariables: Bool {
        pieces.contains { if case .variable = $0 { true } else { false } }
    }

    /// The word as `sh` reads it: bare when it is only safe characters; literal text in single
    /// quotes (`'\''` for a quote) otherwise; a variable as `"$NAME"`. When every piece of text can
    /// stand in double quotes, the whole word is one double-quoted string: `"Bearer $TOKEN"`.
    public var quoted: String {
        guard hasVariables else { return Self.quoted(text: pieces.map(\.literalText).joined()) }
        let doubleQuotable = pieces.allSatisfy { piece in
            guard case .text(let text) = piece else { return true }
            return !text.utf8.contains { Self.specialInDoubleQuotes.contains($0) }
        }
        if doubleQuotable {
            var out = "\""
            for (index, piece) in pieces.enumerated() {
                switch piece {
                case .text(let text): out += text
                case .variable(let name):
                    out += Self.nameCharacterFollows(pieces, after: index) ? "${\(name)}" : "$\(name)"
                }
            }
            return out + "\""
        }
        return pieces.map { piece in
            switch piece {
            case .text(let text): text.isEmpty ? "" : Self.singleQuoted(text)
            case .variable(let name): "\"${\(name)}\""
            }
        }.joined()
    }

    /// Whether `name` can be written `$name` in sh: a letter or `_`, then letters, digits and `_`.
    public static func isVariableName(_ name: String) -> Bool {
        guard let first = name.utf8.first, !(first >= UInt8(ascii: "0") && first <= UInt8(ascii: "9")) else { return false }
        return name.utf8.allSatisfy(isNameByte)
    }

    /// `text` as one shell word: bare when every character is safe, else single-quoted.
    public static func quoted(text: String) -> String {
        if !text.isEmpty, text.utf8.allSatisfy({ isNameByte($0) || safePunctuation.contains($0) }) { return text }
        return singleQuoted(text)
    }

    /// `text` in single quotes; a single quote inside is written `'\''`.
    public static func singleQuoted(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    /// Characters that keep their meaning inside double quotes, and `!`, which bash expands there at a prompt.
    private static let specialInDoubleQuotes: Set<UInt8> = Set("\"$`\\!".utf8)
    /// Characters besides letters, digits and `_` that need no quoting anywhere in a word.
    private static let safePunctuation: Set<UInt8> = Set("@%+=:,./-".utf8)

    private static func isNameByte(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
            || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: "_")
    }

    private static func nameCharacterFollows(_ pieces: [Piece], after index: Int) -> Bool {
        guard index + 1 < pieces.count, case .text(let next) = pieces[index + 1], let first = next.utf8.first else { return false }
        return isNameByte(first)
    }
}

extension ShellWord.Piece {
    /// The text of a literal piece; empty for a variable.
    var literalText: String {
        if case .text(let text) = self { return text }
        return ""
    }
}
