import Foundation

/// The environment variables a test file reads with `env NAME`, found in its text as it is: a
/// file that does not parse never runs the `let` that makes their values secrets, yet its error
/// quotes the line that may hold one.
enum NamedEnvironment {
    /// The values, as `env NAME` reads them, of the variables ``names(in:)`` finds.
    static func values(namedIn file: SourceFile) -> [String] {
        names(in: file).compactMap(EnvironmentOverlay.value)
    }

    /// The literal name of each `env NAME` value that is no `public` one, found in the file's
    /// tokens as the parser reads them: comments are skipped, `;` ends a statement. A file the
    /// lexer refuses is read line by line, and a line it refuses too as words between blanks.
    static func names(in file: SourceFile) -> [String] {
        var names: [String] = []
        func add(_ found: [String]) {
            for name in found where !names.contains(name) { names.append(name) }
        }
        var lexer = Lexer(file: file)
        if let tokens = try? lexer.tokenize() {
            add(tokenNames(tokens))
            return names
        }
        var start = 0
        for lineStart in file.lineStarts.dropFirst() + [file.bytes.count] {
            var line = Lexer(file: file, range: start..<lineStart)
            if let tokens = try? line.tokenize() {
                add(tokenNames(tokens))
            } else {
                add(lineNames(String(decoding: file.bytes[start..<lineStart], as: UTF8.self)))
            }
            start = lineStart
        }
        return names
    }

    /// The names of `tokens`' statements: each `env` that starts a value (after `=` in `let` or
    /// `emit`, after `expect`), with a name that is no variable and no `public` after it (or after
    /// `or DEFAULT`), as ``Parser/value(_:usage:near:)`` reads one.
    private static func tokenNames(_ tokens: [Token]) -> [String] {
        var names: [String] = []
        var words: [String?] = []
        for token in tokens {
            guard case .word(let word) = token else {
                names += statementNames(words)
                words = []
                continue
            }
            // `emit a = env A, b = 1`: a trailing comma ends a field's value.
            words.append(word.bare.map { $0.hasSuffix(",") ? String($0.dropLast()) : $0 } ?? word.literal.map { "\"\($0)" })
        }
        return names + statementNames(words)
    }

    /// The names of one statement's words: bare words as they are, a quoted one after a `"`, nil for one with a variable.
    private static func statementNames(_ words: [String?]) -> [String] {
        var names: [String] = []
        for index in words.indices where words[index] == "env" && index + 1 < words.count {
            let startsValue = index > 0 && words[index - 1] == "=" || index == 1 && words[0] == "expect"
            let after = words.dropFirst(index + 2)
            let isPublic = after.first == "public" || (after.first == "or" && after.dropFirst(2).first == "public")
            guard startsValue, !isPublic, let word = words[index + 1] else { continue }
            let name = word.hasPrefix("\"") ? String(word.dropFirst()) : word
            if Parser.isName(name) { names.append(name) }
        }
        return names
    }

    /// The names of a line the lexer refuses (an unterminated string): the word after each
    /// `env` before a `#` word, but in a statement (between `;`s) whose words end in `public`.
    private static func lineNames(_ line: String) -> [String] {
        // `#` at the start of a word begins a comment, as the lexer reads it.
        var code = Substring(line)
        if let hash = line.indices.first(where: { line[$0] == "#" && ($0 == line.startIndex || [" ", "\t", ";"].contains(line[line.index(before: $0)])) }) {
            code = line[..<hash]
        }
        var names: [String] = []
        for statement in code.split(separator: ";") {
            let words = statement.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "{" || $0 == "}" || $0 == "\r" })
            guard words.last != "public" else { continue }
            for (index, word) in words.enumerated().dropLast() where word == "env" || word.hasSuffix("=env") {
                let name = words[index + 1].trimmingCharacters(in: CharacterSet(charactersIn: "\"',"))
                if Parser.isName(name) { names.append(name) }
            }
        }
        return names
    }
}
