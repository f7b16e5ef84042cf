/// Credentials typed literally in `plugin auth` statements, found so the history file can hold
/// `***` in their place: the line is remembered before it runs, so the credential is not yet a secret.
enum LiteralCredentials {
    /// `text` with the credential after `bearer`, and the part after the `:` of `basic USER:PASS`,
    /// `digest USER:PASS` and `header NAME:VALUE`, as `***` in every `plugin auth` statement; variables stay, as the
    /// history may show their names.
    static func hidden(in text: String) -> String {
        guard text.contains("auth") else { return text }
        let file = SourceFile(name: "<history>", directory: "", text: text)
        var lexer = Lexer(file: file)
        guard let tokens = try? lexer.tokenize() else { return hiddenAfterKeyword(in: text) }
        var replacements: [(range: Range<Int>, text: String)] = []
        for statement in statements(tokens) {
            guard statement.count > 2, statement[0].literal == "plugin", statement[1].literal == "auth" else { continue }
            for (keyword, value) in zip(statement.dropLast(), statement.dropFirst()) {
                switch keyword.literal {
                case "bearer": replacements += hiddenWhole(value)
                case "basic", "digest", "header": replacements += hiddenAfterColon(value, bytes: file.bytes)
                default: break
                }
            }
        }
        var bytes = Array(text.utf8)
        for replacement in replacements.sorted(by: { $0.range.lowerBound > $1.range.lowerBound }) {
            bytes.replaceSubrange(replacement.range, with: Array(replacement.text.utf8))
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The words of each statement: runs of words between `;`, newlines and braces.
    private static func statements(_ tokens: [Token]) -> [[Word]] {
        var statements: [[Word]] = [[]]
        for token in tokens {
            if case .word(let word) = token {
                statements[statements.count - 1].append(word)
            } else {
                statements.append([])
            }
        }
        return statements
    }

    /// The whole word, unless it is only variables.
    private static func hiddenWhole(_ word: Word) -> [(range: Range<Int>, text: String)] {
        guard hasLiteralText(word.parts[...]) else { return [] }
        return [(word.span.start..<word.span.end, "***")]
    }

    /// What follows the first `:` written in the word, unless that is only variables; the whole
    /// word when no `:` is written in it (it may come from a variable, with the secret after it).
    private static func hiddenAfterColon(_ word: Word, bytes: [UInt8]) -> [(range: Range<Int>, text: String)] {
        for (index, part) in word.parts.enumerated() {
            guard case .literal = part.content,
                  let colon = bytes[part.span.start..<part.span.end].firstIndex(of: UInt8(ascii: ":")) else { continue }
            let restOfPart = colon + 1 < part.span.end
            guard restOfPart || hasLiteralText(word.parts[(index + 1)...]) else { return [] }
            let closing = openQuote(bytes, from: word.span.start, to: colon).map { String(UnicodeScalar($0)) } ?? ""
            return [(colon + 1..<word.span.end, "***" + closing)]
        }
        return hiddenWhole(word)
    }

    /// The quote (`"` or `'`) of the string open at `end`, reading the word from `start`; nil outside strings.
    private static func openQuote(_ bytes: [UInt8], from start: Int, to end: Int) -> UInt8? {
        var quote: UInt8?
        var index = start
        while index < end {
            let byte = bytes[index]
            if let open = quote {
                if open == UInt8(ascii: "\""), byte == UInt8(ascii: "\\") { index += 2; continue }
                if byte == open { quote = nil }
            } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                quote = byte
            }
            index += 1
        }
        return quote
    }

    private static func hasLiteralText(_ parts: ArraySlice<WordPart>) -> Bool {
        parts.contains { part in
            if case .literal(let text) = part.content { return !text.isEmpty }
            return false
        }
    }

    /// For text the lexer refuses (an unterminated string): everything after the first credential
    /// keyword of a `plugin auth` line.
    private static func hiddenAfterKeyword(in text: String) -> String {
        let words = text.split(whereSeparator: { $0 == " " || $0 == "\t" })
        guard let plugin = words.firstIndex(of: "plugin"), words.index(after: plugin) < words.endIndex,
              words[words.index(after: plugin)] == "auth",
              let keyword = words.first(where: { ["bearer", "basic", "digest", "header"].contains($0) }) else { return text }
        return String(text[..<keyword.endIndex]) + " ***"
    }
}
