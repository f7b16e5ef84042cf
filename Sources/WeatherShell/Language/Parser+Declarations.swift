import Targets

extension Parser {
    // MARK: - target

    func targetDeclaration(_ raw: RawStatement) throws(Diagnostic) -> TargetDeclaration {
        let command = raw.words[0]
        guard raw.words.count == 2, let block = raw.block else {
            throw usage(command, extra: raw.words.count > 2 ? raw.words[2] : nil)
        }
        let name = raw.words[1]
        guard let text = name.bare, Self.isDottedTargetName(text) else {
            throw error("a target name is ASCII letters, digits, '_', '-' and '.' inside", name.span)
        }
        var fields: [TargetDeclaration.Field] = []
        for statement in block.statements {
            let fieldWord = statement.words[0]
            if let inner = statement.block { throw error("a target field does not take a block", inner.open) }
            // `json?`, `form?`, `multipart?`: a body sent only when a call gives one of its fields.
            let optionalBody = fieldWord.bare.map { TargetDeclaration.optionalBodyFields.contains($0) } ?? false
            guard let fieldName = fieldWord.bare.map({ optionalBody ? String($0.dropLast()) : $0 }),
                  TargetDeclaration.fieldNames.contains(fieldName) else {
                var notes = ["fields: \(TargetDeclaration.fieldNames.joined(separator: ", "))"]
                if let text = fieldWord.bare, let guess = Suggestion.closest(to: text, in: TargetDeclaration.fieldNames) {
                    notes.insert("did you mean '\(guess)'?", at: 0)
                }
                throw error("unknown target field '\(fieldWord.literal ?? "")'", fieldWord.span, notes: notes)
            }
            let arguments = Array(statement.words.dropFirst())
            try checkFieldArity(fieldName, arguments, fieldWord)
            try checkSecondField(fieldName, optionalBody: optionalBody, fieldWord, among: fields)
            if fieldName == "next" || fieldName == "items" { _ = try Pagination(field: fieldName, arguments, fieldWord, file: file) }
            fields.append(.init(name: fieldName, nameSpan: fieldWord.span, arguments: arguments, span: statement.span,
                                isOptionalBody: optionalBody))
        }
        return TargetDeclaration(name: name, fields: fields, file: file, span: raw.span)
    }

    /// Two `query`, `header`, `json`, `form` or `multipart` lines add up; a second `base`, `path`
    /// or `method`, a second `body`, or a body of another kind would drop the first without a word:
    /// an error at the second line, naming the first.
    private func checkSecondField(_ name: String, optionalBody: Bool, _ fieldWord: Word,
                                  among earlier: [TargetDeclaration.Field]) throws(Diagnostic) {
        let bodyKinds = ["json", "form", "multipart", "body"]
        func written(_ field: TargetDeclaration.Field) -> String { field.name + (field.isOptionalBody ? "?" : "") }
        let first: TargetDeclaration.Field?
        if ["base", "path", "method", "body"].contains(name) {
            first = earlier.first { $0.name == name || (name == "body" && bodyKinds.contains($0.name)) }
        } else if bodyKinds.contains(name) {
            first = earlier.first { bodyKinds.contains($0.name) && ($0.name != name || $0.isOptionalBody != optionalBody) }
        } else {
            first = nil
        }
        guard let first else { return }
        let (line, column) = file.location(of: first.nameSpan.start)
        let this = name + (optionalBody ? "?" : "")
        if first.name == name, first.isOptionalBody == optionalBody {
            throw error("a second '\(name)' line would replace the first", fieldWord.span,
                        notes: ["the first '\(name)' is at line \(line), column \(column)"])
        }
        throw error("'\(this)' cannot follow a '\(written(first))' line: a target sends one body", fieldWord.span,
                    notes: ["the '\(written(first))' line is at line \(line), column \(column)",
                            "two json, form or multipart lines of one kind add up to one body"])
    }

    static func isTargetName(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.allSatisfy { Lexer.isNameByte($0, first: false) || $0 == UInt8(ascii: "-") }
    }

    /// A target name may also hold `.` inside (`petstore.listPets`: `use openapi ... as PREFIX`).
    static func isDottedTargetName(_ text: String) -> Bool {
        !text.hasPrefix(".") && !text.hasSuffix(".") && text.split(separator: ".", omittingEmptySubsequences: false).allSatisfy { isTargetName(String($0)) }
    }

    private func checkFieldArity(_ name: String, _ arguments: [Word], _ fieldWord: Word) throws(Diagnostic) {
        let single = ["doc", "base", "path", "method", "validate", "timeout", "retry", "follow", "body"]
        let isRawBody = name == "body" && arguments.count == 2 && ["raw", "graphql"].contains(arguments[0].bare)
        // `base URL yields`: the host yields to `set base`, as a pack's does.
        let isYieldingBase = name == "base" && arguments.count == 2 && arguments[1].bare == "yields"
        if single.contains(name), arguments.count != 1, !isRawBody, !isYieldingBase {
            throw error("'\(name)' takes one value", arguments.count > 1 ? arguments[1].span : fieldWord.span,
                        notes: arguments.count > 1 ? ["quote text with blanks: \(name) \"...\""]
                            + (name == "base" ? ["or 'base URL yields': set base, when set, replaces its host"] : []) : [])
        }
        if name == "sample" {
            guard arguments.count == 1 || (arguments.count == 3 && arguments[1].bare == "status") else {
                throw error("expected 'sample @FILE' or 'sample @FILE status CODE'", arguments.first?.span ?? fieldWord.span)
            }
        }
        if ["query", "header", "json", "form", "multipart", "style"].contains(name), arguments.isEmpty {
            throw error("'\(name)' needs at least one value", fieldWord.span)
        }
        if name == "method", let method = arguments[0].literal, HTTPMethod(rawValue: method) == nil {
            throw error("'\(method)' is not an HTTP method", arguments[0].span,
                        notes: ["a method is a token such as \(Self.methods.joined(separator: " ")) or PROPFIND"])
        }
        try checkFieldValue(name, arguments)
    }

    /// A literal `validate`, `retry` or `timeout` value that can never be valid is an error before
    /// anything runs, in the words the target's compiler uses for one that holds a `$variable`.
    private func checkFieldValue(_ name: String, _ arguments: [Word]) throws(Diagnostic) {
        guard let word = arguments.first, let text = word.literal else { return }
        switch name {
        case "validate" where !Self.isValidation(text):
            throw error(Self.validationUsage, word.span)
        case "retry" where Self.retryCount(text) == nil:
            throw error(Self.retryUsage, word.span)
        case "timeout" where Self.timeout(text) == nil:
            throw error(Self.timeoutUsage, word.span)
        default: break
        }
    }

    static let validationUsage = "validate takes none, 2xx, 2xx-3xx or status codes such as 200,201"
    static let retryUsage = "retry takes a count from 0 to 100: retry 3"
    static let timeoutUsage = "a timeout is a duration such as 250ms, 2s or 1m, at most a day"

    /// Whether `validate` takes `text`: none, 2xx, 2xx-3xx, schema, or status codes (``statusCodes(_:)``).
    static func isValidation(_ text: String) -> Bool {
        ["none", "2xx", "2xx-3xx", "schema"].contains(text) || statusCodes(text) != nil
    }

    /// `200,201`: each a status code from 100 to 599; nil for anything else.
    static func statusCodes(_ text: String) -> [Int]? {
        let codes = text.split(separator: ",").compactMap { Int($0) }.filter { (100...599).contains($0) }
        return !codes.isEmpty && codes.count == text.split(separator: ",").count ? codes : nil
    }

    /// A target's `retry` count, 0 to 100; nil for anything else.
    static func retryCount(_ text: String) -> Int? {
        Int(text).flatMap { (0...100).contains($0) ? $0 : nil }
    }

    /// A target's `timeout`: a duration longer than zero, at most a day; nil for anything else.
    static func timeout(_ text: String) -> Duration? {
        DurationText.parse(text).flatMap { $0 > .zero ? $0 : nil }
    }

    static let methods = ["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"]

    // MARK: - call

    func callStatement(_ arguments: [Word], command: Word) throws(Diagnostic) -> CallStatement {
        guard let target = arguments.first else {
            throw usage(command)
        }
        var (rest, output) = try splitRedirect(Array(arguments.dropFirst()))
        let stream = Self.takeStreamFlag(&rest)
        return CallStatement(target: target, arguments: rest, output: output, stream: stream)
    }

    /// `get URL items...`, `request METHOD URL items...`, with `--form`, `--multipart` and `> FILE`.
    func requestStatement(_ arguments: [Word], command: Word, name: String) throws(Diagnostic) -> RequestStatement {
        let isRequest = name == "request"
        // Made only for an error.
        var usageText: String {
            (isRequest ? "request METHOD" : name) + " URL [name==value] [name=value] [name:=json] [Header:value] [field@file] [@file] [FLAGS] [> FILE]"
        }
        var (rest, output) = try splitRedirect(arguments)
        let stream = Self.takeStreamFlag(&rest)
        var style = RequestStatement.BodyStyle.json
        let flags = try takeRequestFlags(&rest, style: &style, output: &output, usage: { usageText })
        var method: Word?
        if isRequest {
            guard !rest.isEmpty else { throw usage(command, usageText) }
            method = rest.removeFirst()
        }
        guard !rest.isEmpty else { throw usage(command, usageText) }
        let url = rest.removeFirst()
        return RequestStatement(command: command, method: method, url: url, items: rest, bodyStyle: style, output: output, stream: stream,
                                flags: flags)
    }

    /// Removes `--stream` and `-S` (HTTPie's spelling) from `words`; whether one was there.
    private static func takeStreamFlag(_ words: inout [Word]) -> Bool {
        func isFlag(_ word: Word) -> Bool {
            guard let bare = word.bare else { return false }
            return bare == "--stream" || bare == "-S"
        }
        guard words.contains(where: isFlag) else { return false }
        words.removeAll(where: isFlag)
        return true
    }

    /// The words before a `> FILE` redirect, and the file's word.
    private func splitRedirect(_ words: [Word]) throws(Diagnostic) -> (rest: [Word], output: Word?) {
        var rest = words
        // `>` begins a redirect when it opens a word unquoted: `> out.json`, `>out.json`, `>$out`, `>"a b.json"`.
        guard let index = rest.firstIndex(where: { word in
            guard let first = word.parts.first, !first.quoted, case .literal(let text) = first.content else { return false }
            return text.hasPrefix(">")
        }) else { return (rest, nil) }
        let redirect = rest[index]
        var file = redirect
        if case .literal(let text) = file.parts[0].content {
            let remainder = String(text.dropFirst())
            if remainder.isEmpty { file.parts.removeFirst() } else { file.parts[0].content = .literal(remainder) }
        }
        var consumed = 1
        if file.parts.isEmpty {
            guard index + 1 < rest.count else { throw error("expected a file name after '>'", redirect.span) }
            file = rest[index + 1]
            consumed = 2
        }
        if index + consumed < rest.count { throw error("nothing may follow '> FILE'", rest[index + consumed].span) }
        rest.removeSubrange(index...)
        return (rest, file)
    }

    // MARK: - expect

    func expectation(_ arguments: [Word], command: Word) throws(Diagnostic) -> Expectation {
        let usageText = "expect [not] VALUE OP VALUE, or expect VALUE [not] exists; OP is one of \(Expectation.Operator.allCases.map(\.rawValue).joined(separator: " "))"
        var words = arguments[...]
        var negated = false
        if words.first?.bare == "not" {
            negated = true
            words = words.dropFirst()
        }
        guard let expressionStart = arguments.first?.span else { throw usage(command, usageText) }
        guard !words.isEmpty else { throw usage(command, usageText) }
        guard let opIndex = words.firstIndex(where: { word in
            guard let text = word.bare else { return false }
            return Expectation.Operator(rawValue: text) != nil || text == "not"
        }) else {
            // A word that reads as a mistyped operator (`=`, `=>`, `contain`) is where the caret goes.
            let operators = Expectation.Operator.allCases.map(\.rawValue)
            // Hurl's name for `isBool`; Perl's and Python's for `matches` and `contains`.
            let hurlNames = ["isBoolean": "isBool", "=~": "matches", "in": "contains"]
            for word in words.dropFirst() {
                guard let text = word.bare else { continue }
                let symbols = !text.isEmpty && text.allSatisfy { "=<>!~".contains($0) }
                let letters = (text.count > 2 || hurlNames[text] != nil) && text.allSatisfy(\.isLetter)
                guard symbols || letters,
                      let guess = text == "=" || text == "===" ? "==" : hurlNames[text] ?? Suggestion.closest(to: text, in: operators) else { continue }
                // `status in [404]` reads the other way round: the list contains the value.
                let turned = text == "in" ? ["expect [404, 410] contains status"] : []
                throw error("'\(text)' is not an operator; did you mean '\(guess)'?", word.span, notes: turned + ["usage: \(usageText)"])
            }
            // An operator written against its values (`.num==4`, `.num ==4`).
            for word in words {
                guard let text = word.bare else { continue }
                if let glued = ["==", "!=", "<=", ">=", "<", ">"].first(where: { text.contains($0) }), !text.contains("[?") {
                    throw error("'\(glued)' needs a blank on each side", word.span, notes: ["expect .count \(glued) 4", "usage: \(usageText)"])
                }
            }
            throw error("expected an operator", words.last?.span ?? command.span, notes: ["usage: \(usageText)"])
        }
        let subject = try value(Array(words[..<opIndex]), usage: usageText, near: words[opIndex].span)
        if case .word(let word) = subject { try checkLiteralSubject(word) }
        // `staus | length` filters the text "staus": as much a typo as `staus` alone.
        if case .query(let query) = subject, case .value(let word) = query.source { try checkLiteralSubject(word) }
        var rest = words[opIndex...]
        if rest.first?.bare == "not" {
            negated.toggle()
            rest = rest.dropFirst()
        }
        guard let opWord = rest.first, let opText = opWord.bare, let op = Expectation.Operator(rawValue: opText) else {
            throw error("expected an operator after 'not'", rest.first?.span ?? words[opIndex].span, notes: ["usage: \(usageText)"])
        }
        let operands = Array(rest.dropFirst())
        if op.isUnary {
            if let extra = operands.first { throw error("'\(opText)' takes no value", extra.span) }
            return Expectation(negated: negated, subject: subject, op: op, expected: nil, span: expressionStart.union(opWord.span))
        }
        guard operands.count == 1 else {
            // `== [1, 2]`: a list or object written bare is one word, without blanks.
            let bareList = operands.first?.bare.map { $0.hasPrefix("[") || $0.hasPrefix("{") } == true
            throw error(operands.isEmpty ? "expected a value after '\(opText)'"
                            : bareList ? "a list or object written bare has no blanks" : "expected one value; quote text with blanks",
                        operands.count > 1 ? operands[1].span : opWord.span,
                        notes: (bareList ? ["write [1,2] or {\"a\":1}, or quote it: '[1, 2]'"] : []) + ["usage: \(usageText)"])
        }
        if [.equal, .notEqual, .less, .lessOrEqual, .greater, .greaterOrEqual].contains(op) { try checkExpectedValue(operands[0], after: opText) }
        return Expectation(negated: negated, subject: subject, op: op, expected: operands[0], span: expressionStart.union(operands[0].span))
    }

    /// The names a query may start with, for did-you-mean.
    static let queryNames = ["status", "header", "headers", "body", "bytes", "time", "url", "redirects", "version", "cookie"]

    /// What `expect` checks is a query, a variable, quoted text or a number: a bare word such as
    /// `staus` or `$nope` read as text would make a check that cannot fail as meant.
    private func checkLiteralSubject(_ word: Word) throws(Diagnostic) {
        guard let text = word.bare, !Self.isPlainNumberOrConstant(text) else { return }
        var notes = ["a check starts with a query (status, .json.id, $.json.id, header NAME, body, ...), a $variable or \"quoted text\""]
        // Hurl's `duration` is `time` here.
        if let guess = text == "duration" ? "time" : Suggestion.closest(to: text, in: Self.queryNames) {
            notes.insert("did you mean '\(guess)'?", at: 0)
        }
        if text == "$" { notes.insert("the whole answer is '.' (Hurl's jsonpath \"$\"): expect . | length == 2", at: 0) }
        throw error("'\(text)' is not a query", word.span, notes: notes)
    }

    /// The value a comparison compares with is text as written; one that reads as a query (`.id`,
    /// `$.id`) would be compared as text (`expect .a != .b` could never fail), so it is an error
    /// unless quoted. After `endsWith` and the like, `.com` is plainly text.
    private func checkExpectedValue(_ word: Word, after op: String) throws(Diagnostic) {
        guard let text = word.bare, text.hasPrefix(".") || text.hasPrefix("$.") || text.hasPrefix("$["),
              !Self.isPlainNumberOrConstant(text) else { return }
        throw error("'\(text)' after '\(op)' would be compared as text, not as a query", word.span,
                    notes: ["quote it to mean the text: \"\(text)\"",
                            "to compare two values of the answer: let other = \(text), then compare with $other"])
    }

    /// A bare number (`200`, `-1.5`, `.5`) or `true`, `false`, `null`.
    static func isPlainNumberOrConstant(_ text: String) -> Bool {
        ["true", "false", "null"].contains(text) || Double(text) != nil && text.allSatisfy { "0123456789.-+eE".contains($0) }
    }

    // MARK: - reactor

    /// Words that start a statement of their own and are no command: a reactor of that name
    /// could never run.
    static let reservedWords: Set<String> = ["emit", "else", "catch"]

    func reactorDeclaration(_ raw: RawStatement) throws(Diagnostic) -> ReactorDeclaration {
        let command = raw.words[0]
        guard raw.words.count == 2, let block = raw.block else {
            throw usage(command, extra: raw.words.count > 2 ? raw.words[2] : nil)
        }
        let name = raw.words[1]
        guard let text = name.bare, Self.isTargetName(text) else { throw error("a reactor name is ASCII letters, digits, '_' and '-'", name.span) }
        if Self.reservedWords.contains(text) {
            throw error("'\(text)' is a word of the language; a reactor needs another name", name.span)
        }
        var state: [ReactorDeclaration.StateField] = []
        var actions: [ReactorDeclaration.Action] = []
        for statement in block.statements {
            let keyword = statement.words[0]
            switch keyword.bare {
            case "state":
                if let inner = statement.block { throw error("'state' does not take a block", inner.open) }
                for field in try fieldAssignments(Array(statement.words.dropFirst()), command: keyword, usage: "state NAME = VALUE[, NAME = VALUE...]") {
                    guard case .word(let initial) = field.value else {
                        throw error("a state field starts from a plain value", field.value.span)
                    }
                    try checkNew(field.name, among: state.map(\.name), what: "state field")
                    state.append(.init(name: field.name, initial: initial))
                }
            case "action":
                let action = try actionDeclaration(statement)
                if let field = action.unlessField, !state.contains(where: { $0.name.literal == field.literal }) {
                    throw error("'unless' names a state field, and '\(field.literal ?? "")' is not one", field.span,
                                notes: ["declare 'state' before the actions; fields: \(state.compactMap(\.name.literal).joined(separator: ", "))"])
                }
                try checkNew(action.name, among: actions.map(\.name), what: "action")
                actions.append(action)
            default:
                if let misplaced = misplacedFollower(keyword) { throw misplaced }
                throw error("a reactor holds 'state' and 'action' declarations", keyword.span,
                            notes: ["found '\(keyword.literal ?? "")'"])
            }
        }
        let guards = ReactorDeclaration.guards(of: actions)
        for field in state {
            guard let name = field.name.literal, let action = guards[name], let value = Self.literalValue(field.initial),
                  let problem = ReactorDeclaration.guardProblem(field: name, action: action, value: value) else { continue }
            throw error(problem, field.initial.span, notes: ["start it as false: state \(name) = false"])
        }
        for action in actions { try checkEmittedFields(action.body + (action.catchBody ?? []), state: state, guards: guards) }
        return ReactorDeclaration(name: name, state: state, actions: actions, file: file, span: raw.span)
    }

    private func actionDeclaration(_ raw: RawStatement) throws(Diagnostic) -> ReactorDeclaration.Action {
        let keyword = raw.words[0]
        guard raw.words.count >= 2, let block = raw.block else {
            throw usage(keyword, "action NAME [PARAMS...] { ... } [catch { ... }]")
        }
        let name = raw.words[1]
        guard let text = name.bare, Self.isTargetName(text) else { throw error("an action name is ASCII letters, digits, '_' and '-'", name.span) }
        var parameters = Array(raw.words.dropFirst(2))
        var unlessField: Word?
        if let unless = parameters.firstIndex(where: { $0.bare == "unless" }) {
            guard unless == parameters.count - 2 else {
                throw error("expected 'unless FIELD' at the end, before '{'", parameters[unless].span,
                            notes: ["example: action refresh unless loading { ... }"])
            }
            unlessField = parameters[unless + 1]
            parameters.removeSubrange(unless...)
        }
        for (index, parameter) in parameters.enumerated() {
            guard parameter.bare.map(Self.isName) ?? false else { throw error("an action parameter is a variable name", parameter.span) }
            try checkNew(parameter, among: Array(parameters[..<index]), what: "parameter")
        }
        if let word = raw.catchWord, word.bare != "catch" {
            throw error("'\(word.literal ?? "")' cannot follow an action's block", word.span, notes: ["an action may be followed by catch { ... }"])
        }
        let body = try statements(block, context: .action)
        let catchBody = try raw.catchBlock.map { catchBlock throws(Diagnostic) in try statements(catchBlock, context: .action) }
        return .init(name: name, parameters: parameters, unlessField: unlessField, body: body, catchBody: catchBody)
    }

    /// A second state field, action or parameter of one name would be ignored or shadowed without
    /// a word: an error at the second, naming the first.
    private func checkNew(_ name: Word, among earlier: [Word], what: String) throws(Diagnostic) {
        guard let text = name.literal, let first = earlier.first(where: { $0.literal == text }) else { return }
        let (line, column) = file.location(of: first.span.start)
        throw error("\(what) '\(text)' is declared twice", name.span, notes: ["the first '\(text)' is at line \(line), column \(column)"])
    }

    /// `a = x, b = y` split into its fields' words: a trailing unquoted comma on a word separates
    /// fields and is taken off it (its parts and span), so `"",` is the empty string and `$t,` the
    /// variable alone. Shared with the line history's hiding (``LiteralCredentials``), which must
    /// read the fields as they are parsed.
    static func fieldGroups(_ words: [Word]) -> [[Word]] {
        var groups: [[Word]] = [[]]
        for word in words {
            var word = word
            if let last = word.parts.last, !last.quoted, case .literal(let text) = last.content, text.hasSuffix(",") {
                let trimmed = String(text.dropLast())
                if trimmed.isEmpty { word.parts.removeLast() } else { word.parts[word.parts.count - 1].content = .literal(trimmed) }
                word.span = SourceSpan(start: word.span.start, end: word.span.end - 1)
                if !word.parts.isEmpty { groups[groups.count - 1].append(word) }
                groups.append([])
            } else {
                groups[groups.count - 1].append(word)
            }
        }
        if groups.last?.isEmpty == true, groups.count > 1 { groups.removeLast() }
        return groups
    }

    /// `a = x, b = y`: a trailing comma on a value separates fields.
    func fieldAssignments(_ words: [Word], command: Word, usage usageText: String) throws(Diagnostic) -> [FieldAssignment] {
        let groups = Self.fieldGroups(words)
        var result: [FieldAssignment] = []
        for group in groups {
            guard group.count >= 3, group[1].bare == "=", let name = group[0].bare, Self.isName(name) else {
                throw error("expected NAME = VALUE", group.first?.span ?? command.span, notes: ["usage: \(usageText)"])
            }
            result.append(FieldAssignment(name: group[0], value: try value(Array(group.dropFirst(2)), usage: usageText, near: group[1].span)))
        }
        return result
    }
}
