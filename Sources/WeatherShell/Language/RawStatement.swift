/// A statement before its command is known: its words and any `{ }` block (and `catch { }`).
struct RawStatement {
    struct Block {
        var statements: [RawStatement]
        var open: SourceSpan
        var close: SourceSpan
    }
    var words: [Word]
    var block: Block?
    /// `catch` (or `else`) and the block after it.
    var catchWord: Word?
    var catchBlock: Block?
    /// `| COMMAND` at the end.
    var pipe: PipeCommand?
    var span: SourceSpan
}

/// Groups tokens into raw statements, checking that braces balance.
struct RawStatementReader {
    /// Blocks deeper than this are refused: the reader recurses once per block, and a pasted
    /// line of thousands of `{` would otherwise overflow the stack.
    static let maximumDepth = 256

    let file: SourceFile
    let tokens: [Token]
    var position = 0
    private var depth = 0

    init(file: SourceFile, tokens: [Token]) {
        self.file = file
        self.tokens = tokens
    }

    /// Statements up to the end of input, or up to a `}` when `insideBlock`.
    mutating func statements(insideBlock open: SourceSpan? = nil) throws(Diagnostic) -> [RawStatement] {
        var result: [RawStatement] = []
        while true {
            switch tokens[position] {
            case .end:
                position += 1
            case .endOfInput(let span):
                if let open {
                    throw Diagnostic(.parse, "unclosed '{'", file: file, span: open,
                                     notes: ["the block opened here reaches the end of the input (line \(file.location(of: span.start).line)) without '}'"])
                }
                return result
            case .closeBrace(let span):
                guard open != nil else {
                    throw Diagnostic(.parse, "unexpected '}'", file: file, span: span, notes: ["there is no open '{' for it to close"])
                }
                return result
            case .openBrace(let span):
                throw Diagnostic(.parse, "a block must follow a command", file: file, span: span,
                                 notes: ["blocks belong to 'target NAME {', 'reactor NAME {', 'action NAME {', 'if', 'for', 'repeat' and 'until'"])
            case .word:
                result.append(try statement())
            case .pipe(let pipe):
                throw Diagnostic(.parse, "'|' must follow a command", file: file, span: pipe.span)
            }
        }
    }

    private mutating func statement() throws(Diagnostic) -> RawStatement {
        var words: [Word] = []
        while case .word(let word) = tokens[position] {
            words.append(word)
            position += 1
        }
        var raw = RawStatement(words: words, span: spanOf(words))
        if case .pipe(let pipe) = tokens[position] {
            raw.pipe = pipe
            position += 1
        }
        if case .openBrace = tokens[position] {
            raw.block = try block()
            // `catch { }` after an action's block, `else { }` after an `if` block.
            if case .word(let word) = tokens[position], word.bare == "catch" || word.bare == "else" {
                raw.catchWord = word
                position += 1
                if word.bare == "else", case .word(let next) = tokens[position], next.bare == "if" {
                    raw.catchBlock = try elseIf()
                } else {
                    guard case .openBrace = tokens[position] else {
                        throw Diagnostic(.parse, "expected '{' after '\(word.bare ?? "")'", file: file, span: tokens[position].span)
                    }
                    raw.catchBlock = try block()
                }
            }
            raw.span = raw.span.union(raw.catchBlock?.close ?? raw.block?.close ?? raw.span)
        }
        switch tokens[position] {
        case .end, .endOfInput, .closeBrace:
            break
        case .word(let word):
            throw Diagnostic(.parse, "expected a new line or ';' after '}'", file: file, span: word.span)
        case .pipe(let pipe):
            throw Diagnostic(.parse, "'|' must follow a command", file: file, span: pipe.span)
        case .openBrace(let span):
            throw Diagnostic(.parse, "unexpected '{'", file: file, span: span)
        }
        return raw
    }

    /// `} else if COND { ... }`: an else block holding that one `if`, as sh's `elif`; a chain of
    /// them counts toward the nesting bound as blocks do.
    private mutating func elseIf() throws(Diagnostic) -> RawStatement.Block {
        let open = try enterBlock()
        defer { depth -= 1 }
        let nested = try statement()
        return RawStatement.Block(statements: [nested], open: open, close: nested.span)
    }

    /// One level deeper, refused past the nesting bound: the span of the block's first token.
    /// The caller steps back out (`defer { depth -= 1 }`).
    private mutating func enterBlock() throws(Diagnostic) -> SourceSpan {
        let open = tokens[position].span
        guard depth < Self.maximumDepth else {
            throw Diagnostic(.parse, "blocks nested deeper than \(Self.maximumDepth)", file: file, span: open)
        }
        depth += 1
        return open
    }

    private mutating func block() throws(Diagnostic) -> RawStatement.Block {
        let open = try enterBlock()
        defer { depth -= 1 }
        position += 1
        let inner = try statements(insideBlock: open)
        let close = tokens[position].span
        position += 1
        return RawStatement.Block(statements: inner, open: open, close: close)
    }

    private func spanOf(_ words: [Word]) -> SourceSpan {
        guard let first = words.first, let last = words.last else { return tokens[position].span }
        return first.span.union(last.span)
    }
}
