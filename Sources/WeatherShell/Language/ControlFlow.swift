import Checks

/// `if EXPR { ... } else { ... }`: the expression is any expectation's.
public struct Conditional: Sendable {
    public var condition: Expectation
    public var then: [Statement]
    public var otherwise: [Statement]?
}

/// `for`, `repeat` and `until`: a block run again and again.
public struct Loop: Sendable {
    /// What `for NAME in ...` goes over.
    public enum Source: Sendable {
        /// The values of a query that gives a list (`.items`).
        case query(Query)
        /// Words, each expanded (`Seoul Busan $city`).
        case words([Word])
    }

    public enum Kind: Sendable {
        /// `for NAME in QUERY|WORDS { ... }`.
        case forEach(name: Word, source: Source)
        /// `repeat N { ... }`.
        case repeatCount(Word)
        /// `until EXPR [every DURATION] [max N] { ... }`: the block, then the check, until it holds.
        case until(Expectation, every: Word?, max: Word?)
    }

    public var kind: Kind
    public var body: [Statement]
}

extension Parser {
    /// `sleep`, `if`, `for`, `repeat` and `until` (LANGUAGE.md, "Control flow"); nil for another command.
    func controlFlow(_ raw: RawStatement, name: String, context: Context) throws(Diagnostic) -> StatementKind? {
        // Every statement is asked first: another command leaves before its arguments are copied.
        switch name {
        case "sleep", "if", "for", "repeat", "until": break
        default: return nil
        }
        let command = raw.words[0]
        let arguments = Array(raw.words.dropFirst())
        switch name {
        case "sleep":
            if let block = raw.block { throw error("'sleep' does not take a block", block.open) }
            guard arguments.count == 1 else { throw usage(command, "sleep DURATION (500ms, 2s, 1m)", extra: arguments.dropFirst().first) }
            try checkLiteral(arguments[0], LiteralValue.duration)
            return .sleep(arguments[0])
        case "if":
            let usageText = "if EXPR { ... } [else if EXPR { ... }] [else { ... }]"
            let body = try block(raw, usage: usageText, context: context)
            var otherwise: [Statement]?
            if let word = raw.catchWord {
                guard word.bare == "else", let elseBlock = raw.catchBlock else {
                    throw error("'\(word.literal ?? "")' cannot follow an 'if' block", word.span, notes: ["usage: \(usageText)"])
                }
                otherwise = try statements(elseBlock, context: context)
            }
            guard !arguments.isEmpty else { throw usage(command, usageText) }
            return .conditional(Conditional(condition: try expectation(arguments, command: command), then: body, otherwise: otherwise))
        case "for":
            let usageText = "for NAME in QUERY|WORDS... { ... }"
            let body = try block(raw, usage: usageText, context: context)
            guard arguments.count >= 3, arguments[1].bare == "in", let variable = arguments[0].bare, Self.isName(variable) else {
                throw usage(command, usageText)
            }
            let items = Array(arguments.dropFirst(2))
            let source: Loop.Source
            // A query (`.items`, `headers Set-Cookie`, `body | jsonpath ...`) uses every word; words
            // after one that starts with `.` or `$` are an error (`for x in .a .b`); any others are words.
            let (query, used) = try QueryParser(file: file).prefixQuery(items[...])
            if let query, used == items.count {
                source = .query(query)
            } else if query != nil, items[0].bare?.hasPrefix(".") == true || items[0].loneVariable(followedByPath: true) != nil {
                throw error("'for' goes over one query, or over words", items[used].span,
                            notes: ["quote a word that starts with '.': for e in \".txt\" \".md\"", "usage: \(usageText)"])
            } else {
                source = .words(items)
            }
            return .loop(Loop(kind: .forEach(name: arguments[0], source: source), body: body))
        case "repeat":
            let usageText = "repeat N { ... }"
            let body = try block(raw, usage: usageText, context: context)
            guard arguments.count == 1 else { throw usage(command, usageText, extra: arguments.dropFirst().first) }
            try checkLiteral(arguments[0]) { text throws(LiteralValue.Problem) in try LiteralValue.rounds(text, allowingZero: true) }
            return .loop(Loop(kind: .repeatCount(arguments[0]), body: body))
        case "until":
            let usageText = "until EXPR [every DURATION] [max N] { ... }"
            let body = try block(raw, usage: usageText, context: context)
            var words = arguments
            var every: Word?, max: Word?
            // `every D` and `max N` end the line, in either order.
            while words.count >= 2, let keyword = words[words.count - 2].bare, keyword == "every" || keyword == "max" {
                let value = words[words.count - 1]
                if keyword == "every" {
                    guard every == nil else { throw error("'every' is given twice", words[words.count - 2].span) }
                    every = value
                } else {
                    guard max == nil else { throw error("'max' is given twice", words[words.count - 2].span) }
                    max = value
                }
                words.removeLast(2)
            }
            guard !words.isEmpty else { throw usage(command, usageText) }
            if let every { try checkLiteral(every, LiteralValue.duration) }
            if let max { try checkLiteral(max) { text throws(LiteralValue.Problem) in try LiteralValue.rounds(text, allowingZero: false) } }
            return .loop(Loop(kind: .until(try expectation(words, command: command), every: every, max: max), body: body))
        default:
            return nil
        }
    }

    /// A literal value that can never be valid (`repeat abc`, `sleep 1e400`) is an error before
    /// anything runs; one that holds a `$variable` is checked when it runs, in the same words.
    func checkLiteral<Value>(_ word: Word, _ read: (String) throws(LiteralValue.Problem) -> Value) throws(Diagnostic) {
        guard let text = word.literal else { return }
        do {
            _ = try read(text)
        } catch {
            throw self.error(error.message, word.span, notes: error.notes)
        }
    }

    private func block(_ raw: RawStatement, usage usageText: String, context: Context) throws(Diagnostic) -> [Statement] {
        guard let block = raw.block else { throw usage(raw.words[0], usageText) }
        return try statements(block, context: context)
    }

    /// The statements of a block (an action's, a loop's, an `if`'s), parsed in `context`.
    func statements(_ block: RawStatement.Block, context: Context) throws(Diagnostic) -> [Statement] {
        var result: [Statement] = []
        for raw in block.statements { result.append(try statement(raw, context: context)) }
        return result
    }
}

/// What a count or a duration must be: the parser checks a literal one, a run one that holds
/// `$variables`, with the same message.
enum LiteralValue {
    struct Problem: Error {
        var message: String
        var notes: [String]
    }

    /// The most rounds a loop may be asked for: a typo of a few zeros is an error, not an afternoon.
    static let maximumRounds = 1_000_000

    /// `text` as a number of rounds (`repeat`, `until ... max`).
    static func rounds(_ text: String, allowingZero: Bool) throws(Problem) -> Int {
        guard let count = Int(text), count >= (allowingZero ? 0 : 1), count <= maximumRounds else {
            throw Problem(message: "'\(text.shortened())' is not a number of rounds",
                          notes: ["a whole number from \(allowingZero ? 0 : 1) to \(maximumRounds)"])
        }
        return count
    }

    /// `text` as a duration (`sleep`, `until ... every`).
    static func duration(_ text: String) throws(Problem) -> Duration {
        guard let duration = DurationText.parse(text), duration >= .zero else {
            throw Problem(message: "'\(text.shortened())' is not a duration",
                          notes: ["a duration is a number of seconds, or a number and a unit: 10, 500ms, 2s, 1m"])
        }
        return duration
    }
}
