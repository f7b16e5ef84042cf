/// One piece of a word: literal text or a `$name` reference, and whether it came from a string.
public struct WordPart: Sendable, Equatable {
    public enum Content: Sendable, Equatable {
        case literal(String)
        case variable(String)
    }
    public var content: Content
    /// True for text written inside `"..."`.
    public var quoted: Bool
    public var span: SourceSpan
}

/// A shell word: bare text and strings written with no blank between them form one argument.
public struct Word: Sendable, Equatable {
    public var parts: [WordPart]
    public var span: SourceSpan

    /// The text when the word has no variable references.
    public var literal: String? {
        // Most words are one piece: asked for it several times a statement, it is not built again.
        if parts.count == 1 {
            guard case .literal(let piece) = parts[0].content else { return nil }
            return piece
        }
        var text = ""
        for part in parts {
            guard case .literal(let piece) = part.content else { return nil }
            text += piece
        }
        return text
    }

    /// True when any part was written inside quotes.
    public var isQuoted: Bool { parts.contains { $0.quoted } }

    /// The text of an unquoted, variable-free word: what keywords and operators are matched against.
    public var bare: String? { isQuoted ? nil : literal }

    /// The name of the variable when the word is only `$name` (or `${name}`), unquoted.
    public var loneVariable: String? {
        guard parts.count == 1, !parts[0].quoted, case .variable(let name) = parts[0].content else { return nil }
        return name
    }

    /// The name of the variable when the word is `$name` followed at once by a path (`$name.key`,
    /// `$name[0]`), unquoted.
    public func loneVariable(followedByPath: Bool) -> String? {
        guard parts.count >= 2, !parts[0].quoted, !parts[1].quoted, case .variable(let name) = parts[0].content,
              case .literal(let text) = parts[1].content, text.hasPrefix(".") || text.hasPrefix("[") else { return nil }
        return name
    }

    /// The names of variables the word refers to.
    public var variableNames: [String] {
        parts.compactMap { if case .variable(let name) = $0.content { name } else { nil } }
    }
}

/// A token of the wsh language.
public enum Token: Sendable, Equatable {
    case word(Word)
    case openBrace(SourceSpan)
    case closeBrace(SourceSpan)
    /// A newline or `;`.
    case end(SourceSpan)
    case endOfInput(SourceSpan)
    /// `| COMMAND` after a statement that prints: the shell command, the rest of the line as written.
    case pipe(PipeCommand)

    public var span: SourceSpan {
        switch self {
        case .word(let word): word.span
        case .pipe(let pipe): pipe.span
        case .openBrace(let span), .closeBrace(let span), .end(let span), .endOfInput(let span): span
        }
    }
}

/// The shell command after `|`: `call users | jq '.[0]'` pipes the call's output into `jq '.[0]'`.
/// A class, so that every token and statement, which rarely have one, stays as small as before
/// (a larger Statement made loading 10,000 targets measurably slower).
public final class PipeCommand: Sendable, Equatable {
    /// The command as written, for `/bin/sh -c`: wsh expands nothing in it.
    public let text: String
    /// From the `|` to the end of the line.
    public let span: SourceSpan

    init(text: String, span: SourceSpan) {
        self.text = text
        self.span = span
    }

    public static func == (lhs: PipeCommand, rhs: PipeCommand) -> Bool {
        lhs.text == rhs.text && lhs.span == rhs.span
    }
}
