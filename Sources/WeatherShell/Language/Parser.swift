/// Turns source text into statements, reporting the first syntax error with its place.
///
/// The whole text is parsed before anything runs, so a script with an error on line 7 runs
/// nothing. Commands whose names are not keywords (`weather`, a declared reactor's actions)
/// parse as `.command`: they may be declared later in the same file.
public struct Parser {
    let file: SourceFile

    /// Parses a whole file.
    public static func parse(_ file: SourceFile) throws(Diagnostic) -> Program {
        if let unreadable = file.unreadableText { throw unreadable }
        var lexer = Lexer(file: file)
        var reader = RawStatementReader(file: file, tokens: try lexer.tokenize())
        let raws = try reader.statements()
        let parser = Parser(file: file)
        var statements: [Statement] = []
        statements.reserveCapacity(raws.count)
        for raw in raws { statements.append(try parser.statement(raw, context: .topLevel)) }
        return Program(file: file, statements: statements)
    }

    enum Context { case topLevel, action }

    func statement(_ raw: RawStatement, context: Context) throws(Diagnostic) -> Statement {
        let command = raw.words[0]
        let arguments = Array(raw.words.dropFirst())
        // A quoted command word is the same command, as in a shell: `"echo" hi` echoes.
        let name = command.literal ?? ""
        if let kind = try controlFlow(raw, name: name, context: context) {
            if let pipe = raw.pipe { throw error("'|' cannot follow '\(name)'", pipe.span) }
            return Statement(kind: kind, span: raw.span, commandSpan: command.span, pipe: nil)
        }
        if let misplaced = misplacedFollower(command) { throw misplaced }
        if raw.block != nil, name != "target", name != "reactor" {
            var notes = ["blocks belong to 'target NAME {', 'reactor NAME {', 'if', 'for', 'repeat' and 'until'"]
            // `get URL q={"a":1}`: a brace inside a word ends it, as in a shell.
            if let open = raw.block?.open, raw.words.count > 1, raw.words.last?.span.end == open.start {
                notes.append("a { or } in a URL or an item is written inside quotes: 'q={\"a\":1}'")
            } else if let open = raw.block?.open, let next = file.bytes.dropFirst(open.end).first,
                      next == UInt8(ascii: "\"") || next == UInt8(ascii: "}") {
                // `expect .o == {"a":1}`: a brace starts a block, so an object is a quoted word.
                notes.append("an object is written inside quotes: expect .o == '{\"a\":1}' compares it as JSON, and let o = '{\"a\":1}' | jsonpath \"$\" makes one")
            }
            throw error("'\(name.isEmpty ? "this command" : name)' does not take a block", raw.block?.open ?? command.span, notes: notes)
        }
        if let catchWord = raw.catchWord {
            throw error(catchWord.bare == "else" ? "'else' belongs after an 'if' block" : "'catch' belongs after an action's block inside a reactor",
                        catchWord.span)
        }
        let kind: StatementKind
        switch name {
        case "let": kind = try assignment(arguments, command: command)
        case "unset":
            guard !arguments.isEmpty else { throw usage(command) }
            kind = .unset(arguments)
        case "vars": kind = try noArguments(.vars, arguments)
        case "set":
            if let option = arguments.first { try checkOption(option) }
            kind = .set(option: arguments.first, values: Array(arguments.dropFirst()))
        case "echo": kind = .echo(arguments)
        case "print":
            guard !arguments.isEmpty else { throw usage(command) }
            kind = .print(try values(arguments))
        case "use" where ["openapi", "http", "postman"].contains(arguments.first?.bare) && arguments.count != 1:
            guard arguments.count == 2 || (arguments.count == 4 && arguments[2].bare == "as") else {
                let what = ["http": "FILE.http", "postman": "FILE.json"][arguments[0].bare ?? ""] ?? "FILE|URL"
                throw usage(command, "use \(arguments[0].bare ?? "") \(what) [as PREFIX]", extra: arguments.count > 2 ? arguments[2] : nil)
            }
            kind = .command(name: command, arguments: arguments)
        case "expect" where arguments.first?.bare == "schema" && (arguments.count == 1 || (arguments.count == 2 && arguments[1].literal?.hasPrefix("@") == true)):
            kind = .command(name: command, arguments: arguments)
        case "source", "use":
            guard arguments.count == 1 else { throw usage(command, "\(name) \(name == "use" ? "PACK" : "FILE")", extra: arguments.dropFirst(1).first) }
            kind = name == "source" ? .source(arguments[0]) : .command(name: command, arguments: arguments)
        case "help":
            guard arguments.count <= 1 else { throw usage(command, extra: arguments[1]) }
            kind = .help(arguments.first)
        case "exit":
            guard arguments.count <= 1 else { throw usage(command, extra: arguments[1]) }
            kind = .exit(arguments.first)
        case "target":
            if raw.block == nil, arguments.count == 3, arguments[1].bare == "from", arguments[2].bare == "last" {
                guard let text = arguments[0].bare, Self.isTargetName(text) else {
                    throw error("a target name is ASCII letters, digits, '_' and '-'", arguments[0].span)
                }
                kind = .targetFromLast(name: arguments[0])
            } else {
                kind = .target(try targetDeclaration(raw))
            }
        case _ where RequestStatement.commands.contains(name):
            kind = .request(try requestStatement(arguments, command: command, name: name))
        case "call": kind = .call(try callStatement(arguments, command: command))
        case "expect": kind = .expect(try expectation(arguments, command: command))
        case "plugin":
            guard let plugin = arguments.first else { throw usage(command) }
            kind = .plugin(name: plugin, settings: Array(arguments.dropFirst()))
        case "reactor": kind = .reactor(try reactorDeclaration(raw))
        case "emit":
            guard context == .action else {
                throw error("'emit' is only allowed inside a reactor action", command.span)
            }
            kind = .emit(try fieldAssignments(arguments, command: command, usage: "emit NAME = VALUE[, NAME = VALUE...]"))
        default:
            kind = .command(name: command, arguments: arguments)
        }
        if let pipe = raw.pipe, pipe.text.isEmpty {
            throw error("expected a shell command after '|'", pipe.span, notes: ["example: call users | jq '.[0]'"])
        }
        return Statement(kind: kind, span: raw.span, commandSpan: command.span, pipe: raw.pipe)
    }

    // MARK: - let, print, set

    private func assignment(_ arguments: [Word], command: Word) throws(Diagnostic) -> StatementKind {
        let usageText = "let NAME = VALUE"
        guard arguments.count >= 3, arguments[1].bare == "=" else {
            if arguments.count == 1, let text = arguments[0].bare, text.contains("=") {
                throw error("put blanks around '=' in 'let'", arguments[0].span, notes: ["usage: \(usageText)"])
            }
            throw usage(command, usageText, extra: nil)
        }
        let name = arguments[0]
        guard let text = name.bare, Self.isName(text) else {
            throw error("a variable name is ASCII letters, digits and _, not starting with a digit", name.span)
        }
        let valueWords = Array(arguments.dropFirst(2))
        return .assign(name: name, value: try value(valueWords, usage: usageText))
    }

    /// One value: a word, `env NAME [or DEFAULT]`, or a query.
    func value(_ words: [Word], usage usageText: String, near span: SourceSpan? = nil) throws(Diagnostic) -> ValueExpression {
        guard let first = words.first else {
            throw error("missing value", span ?? file.endSpan, notes: ["usage: \(usageText)"])
        }
        if first.bare == "env" {
            let all = words
            var words = words
            let isPublic = words.count > 2 && words.last?.bare == "public"
            if isPublic { words.removeLast() }
            guard words.count == 2 || (words.count == 4 && words[2].bare == "or") else {
                let bad = words.count > 2 ? words[2] : first
                throw error("expected 'env NAME' or 'env NAME or DEFAULT', then 'public' if it is no secret", bad.span)
            }
            let span = first.span.union(all[all.count - 1].span)
            return .env(name: words[1], fallback: words.count == 4 ? words[3] : nil, isPublic: isPublic, span: span)
        }
        if let query = try QueryParser(file: file).query(words) {
            return .query(query)
        }
        guard words.count == 1 else {
            throw error("expected one value; quote text with blanks", words[1].span, notes: ["usage: \(usageText)"])
        }
        return .word(first)
    }

    private func values(_ words: [Word]) throws(Diagnostic) -> [ValueExpression] {
        var result: [ValueExpression] = []
        var index = 0
        let queries = QueryParser(file: file)
        while index < words.count {
            let (query, used) = try queries.prefixQuery(words[index...])
            if let query {
                result.append(.query(query))
                index += used
            } else {
                result.append(.word(words[index]))
                index += 1
            }
        }
        return result
    }

    private func checkOption(_ option: Word) throws(Diagnostic) {
        guard let name = option.bare else { return }
        if name == "|" {
            throw error("set takes no pipe", option.span, notes: ["set lists every option; set OPTION shows one: set stub"])
        }
        if !ShellOption.names.contains(name) {
            var notes = ["options: \(ShellOption.names.joined(separator: ", "))"]
            if let suggestion = Suggestion.closest(to: name, in: ShellOption.names) { notes.insert("did you mean '\(suggestion)'?", at: 0) }
            throw error("unknown option '\(name)'", option.span, notes: notes)
        }
    }

    // MARK: - helpers

    static func isName(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard let first = bytes.first, Lexer.isNameByte(first, first: true) else { return false }
        return bytes.dropFirst().allSatisfy { Lexer.isNameByte($0, first: false) }
    }

    private func noArguments(_ kind: StatementKind, _ arguments: [Word]) throws(Diagnostic) -> StatementKind {
        if let extra = arguments.first { throw error("unexpected argument", extra.span) }
        return kind
    }

    /// `else` or `catch` starting a statement: written on the line after the `}` it belongs to,
    /// where a new line has already ended the `if` or the action.
    func misplacedFollower(_ word: Word) -> Diagnostic? {
        switch word.bare {
        case "else": error("'else' must follow the '}' of its 'if' block on the same line", word.span, notes: ["write: } else {"])
        case "catch": error("'catch' must follow the '}' of its action's block on the same line", word.span, notes: ["write: } catch {"])
        default: nil
        }
    }

    /// The command's usage as `help` gives it.
    func usage(_ command: Word, extra: Word? = nil) -> Diagnostic {
        usage(command, CommandCatalog.entry(command.literal ?? "")?.usage ?? "", extra: extra)
    }

    func usage(_ command: Word, _ text: String, extra: Word? = nil) -> Diagnostic {
        error(extra == nil ? "wrong arguments for '\(command.literal ?? "")'" : "unexpected argument", extra?.span ?? command.span,
              notes: ["usage: \(text)"])
    }

    func error(_ message: String, _ span: SourceSpan, notes: [String] = []) -> Diagnostic {
        Diagnostic(.parse, message, file: file, span: span, notes: notes)
    }
}

extension SourceFile {
    /// An empty span at the end of the text.
    var endSpan: SourceSpan { SourceSpan(start: bytes.count, end: bytes.count) }
}
