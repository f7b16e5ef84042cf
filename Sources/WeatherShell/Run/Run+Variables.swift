import Checks
import Foundation
import Targets

/// Text produced by expanding a word, and whether a secret went into it.
struct Expanded {
    var text: String
    var isSecret: Bool
}

extension Run {
    /// Expands `$name` and `${name}` in a word; an undefined name is an error with a caret under it.
    func expand(_ word: Word) throws(Diagnostic) -> Expanded {
        try expand(word) { _, _, variable in variable.value }
    }

    /// ``expand(_:)``, each variable's value written as `written(text before it, the word's own
    /// text before it, variable)` gives it.
    private func expand(_ word: Word, writing written: (String, String, Variable) -> String) throws(Diagnostic) -> Expanded {
        if word.parts.count == 1, case .literal(let text) = word.parts[0].content { return Expanded(text: text, isSecret: false) }
        var expanded = Expanded(text: "", isSecret: false)
        var literal = ""
        for part in word.parts {
            switch part.content {
            case .literal(let piece):
                expanded.text += piece
                literal += piece
            case .variable(let name):
                guard let variable = variable(named: name) else { throw undefinedVariable(name, at: part.span) }
                expanded.text += written(expanded.text, literal, variable)
                expanded.isSecret = expanded.isSecret || variable.isSecret
            }
        }
        return expanded
    }

    /// Expands a request item: a JSON list or object written after an unquoted `:=` keeps the
    /// quotes of its strings (`tags:=["a","b"]`), which the word lost (`[a,b]`, no JSON); any other
    /// item (`tags:='["a","b"]'`, quoted whole) as ``expand(_:)``.
    func expandItem(_ word: Word) throws(Diagnostic) -> Expanded {
        guard let assign = word.parts.firstIndex(where: { part in
            if !part.quoted, case .literal(let text) = part.content { text.contains(":=") } else { false }
        }), case .literal(let assignText) = word.parts[assign].content,
              let after = assignText.range(of: ":=").map({ assignText[$0.upperBound...] }),
              Self.opensJSON(after.isEmpty ? word.parts.dropFirst(assign + 1).first : nil, orText: after),
              word.parts[(assign + 1)...].contains(where: \.quoted) else { return try expand(word) }
        return try expandKeepingQuotes(word, after: assign, typed: false)
    }

    /// A word's text with the strings of its parts after `start` written as JSON strings, quotes
    /// and all (consecutive quoted parts are one string, as the word joined them). An unquoted
    /// variable there is its JSON when `typed`, else its text.
    private func expandKeepingQuotes(_ word: Word, after start: Int, typed: Bool) throws(Diagnostic) -> Expanded {
        var expanded = Expanded(text: "", isSecret: false)
        var string: String?
        for (index, part) in word.parts.enumerated() {
            var piece: String
            switch part.content {
            case .literal(let literal): piece = literal
            case .variable(let name):
                guard let variable = variable(named: name) else { throw undefinedVariable(name, at: part.span) }
                piece = typed && !part.quoted && index > start ? variable.typedValue.compactText : variable.value
                expanded.isSecret = expanded.isSecret || variable.isSecret
            }
            if part.quoted, index > start {
                string = (string ?? "") + piece
                continue
            }
            if let gathered = string { expanded.text += JSONValue.quoted(gathered) }
            string = nil
            expanded.text += piece
        }
        if let gathered = string { expanded.text += JSONValue.quoted(gathered) }
        return expanded
    }

    /// Whether a value starts a JSON list or object written bare: `text`, or when it is empty the
    /// next part, unquoted.
    private static func opensJSON(_ next: WordPart?, orText text: Substring) -> Bool {
        if !text.isEmpty { return text.hasPrefix("[") || text.hasPrefix("{") }
        guard let next, !next.quoted, case .literal(let literal) = next.content else { return false }
        return literal.hasPrefix("[") || literal.hasPrefix("{")
    }

    /// Expands a word that is a URL, or a target's `path` (`inPath`). Where the word's own text puts
    /// a variable decides how its value is written: right after a written `/` once the path has
    /// begun (`/notes/$id`) it is a segment, percent-encoded but for `/`; after a written `name=` in
    /// the query (`?k=$t`) it is a value, percent-encoded but for what a query value may hold
    /// (`/`, `:`, `?` ...). Escapes already in it (`%20`) are kept. Written so,
    /// a `?`, `&` or `+` in it cannot start a query, add a parameter or become a space, and a secret
    /// goes in a form the masks know. Anywhere else the value is URL text (`$base$next`, `?$query`),
    /// with only `#`, `{` and `}` escaped once the path has begun: a fragment is never sent, and
    /// braces would be read as a parameter. A secret written as a URL's password
    /// (`http://bob:$pw@host`) is percent-encoded whole, as a password is in a URL: a `#`, `@`, `/`
    /// or `%` in it cut the URL elsewhere, and the error showed a piece of it.
    func expandURL(_ word: Word, inPath: Bool) throws(Diagnostic) -> Expanded {
        try expand(word) { before, written, variable in
            if let query = written.lastIndex(of: "?") {
                let parameter = written[query...].split(separator: "&", omittingEmptySubsequences: false).last ?? ""
                if parameter.contains("=") {
                    return PercentEncoding.encode(variable.value, keeping: PercentEncoding.queryValueCharacters, keepingEscapes: true)
                }
            } else if written.hasSuffix("/"), inPath || Self.pathHasBegun(written) {
                return PercentEncoding.encode(variable.value, keeping: [UInt8(ascii: "/")], keepingEscapes: true)
            }
            if inPath || Self.pathHasBegun(before) { return PercentEncoding.encode(variable.value, escapingOnly: Self.urlTextEscaped) }
            return variable.isSecret && Self.endsInUserInfoPassword(before) ? PercentEncoding.encode(variable.value) : variable.value
        }
    }

    /// What a variable's value written as URL text has escaped once the path has begun.
    private static let urlTextEscaped = Set("#{}".utf8)

    /// Whether a URL written so far ends where a password goes: `scheme://user:`, with no `@`
    /// or anything after it yet (a port is written there too, but is no secret).
    private static func endsInUserInfoPassword(_ url: String) -> Bool {
        guard let scheme = url.range(of: "://") else { return false }
        let authority = url[scheme.upperBound...]
        return authority.contains(":") && !authority.contains { "@/?#[".contains($0) }
    }

    /// Whether a URL written so far has reached its path: a `/` after its `://`, or any `/` in a
    /// URL with no scheme (`localhost/x`, `:8080/x`, a path after `set base`).
    private static func pathHasBegun(_ url: String) -> Bool {
        guard let scheme = url.range(of: "://") else { return url.contains("/") }
        return url[scheme.upperBound...].contains("/")
    }

    /// A word as a typed value (LANGUAGE.md, "Values and types"): a word that is only `$name`
    /// has the variable's type; any other is a literal, typed by how it is written.
    func typedValue(of word: Word) throws(Diagnostic) -> JSONValue {
        if word.parts.count == 1, !word.parts[0].quoted, case .variable(let name) = word.parts[0].content {
            guard let variable = variable(named: name) else { throw undefinedVariable(name, at: word.parts[0].span) }
            return variable.typedValue
        }
        if let json = try jsonWordValue(word) { return json }
        let text = try expand(word).text
        // A bare `[` or `{` starts a list or object: one nested past the JSON limit, or with a typo
        // (`[1,2,]`), is an error, not text that happens to start so (a check then compared the
        // list with the text, and `!=` held).
        if !word.isQuoted, text.hasPrefix("[") || text.hasPrefix("{") {
            do {
                return try JSONValue.parse(text)
            } catch where error.isTooDeep {
                throw failure("a JSON value nested deeper than \(JSONValue.maximumDepth) levels", at: word.span,
                              notes: ["quote it to give it as text"])
            } catch {
                throw failure("'\(mask(text).shortened())' is written as JSON but is not JSON: \(mask(error.description))", at: word.span,
                              notes: ["quote it to give it as text: '\(mask(text).shortened())'"])
            }
        }
        return TypedValues.literal(text, quoted: word.isQuoted)
    }

    /// A list or object written as JSON with strings in it (`["a","b"]`, `{"k":"v"}`): the shell
    /// joins its pieces into one word, and the strings' quotes, which the word does not keep, are
    /// put back. Read as the word's text it was the string `[a,b]`, which `!= ["a","b"]` held
    /// against the list. Nil for a word that does not start so; an error when the result is no JSON.
    private func jsonWordValue(_ word: Word) throws(Diagnostic) -> JSONValue? {
        guard word.parts.count > 1, !word.parts[0].quoted, case .literal(let first) = word.parts[0].content,
              first.hasPrefix("[") || first.hasPrefix("{"), word.parts.contains(where: \.quoted) else { return nil }
        let text = try expandKeepingQuotes(word, after: -1, typed: true).text
        guard let value = try? JSONValue.parse(Data(text.utf8)) else {
            throw failure("'\(currentFile.text(word.span.start..<word.span.end).shortened())' is written as JSON but is not JSON", at: word.span,
                          notes: [#"quote the whole value to compare with text: '["a", b]'"#])
        }
        return value
    }

    /// A variable of this run (an action's parameter, `$error`), else of the session.
    func variable(named name: String) -> Variable? {
        localNames.contains(name) ? locals[name] : session.variables[name] ?? answerVariable(name) ?? GeneratedValue.variable(name)
    }

    /// `$status`, `$url` (as the logger shows it) and `$time` (ms): the last answer's, when no
    /// variable of that name is set, so that `echo "failed: $status"` says what came back.
    private func answerVariable(_ name: String) -> Variable? {
        guard let response = lastResponse else { return nil }
        switch name {
        case "status": return Variable(typed: .number(String(response.status)))
        case "url": return Variable(typed: .string(redaction.maskedURL(response.url)))
        case "time": return Variable(typed: .number(String(Int(response.elapsed.milliseconds))))
        default: return nil
        }
    }

    /// Sets or removes a variable where ``variable(named:)`` finds it: a run's own, else the session's.
    func setVariable(_ name: String, _ value: Variable?) {
        if localNames.contains(name) {
            locals[name] = value
        } else {
            session.variables[name] = value
        }
    }

    /// Names a variable reference may use here, for suggestions.
    var visibleVariableNames: [String] {
        locals.names + session.variables.names.filter { !localNames.contains($0) }
    }

    func undefinedVariable(_ name: String, at span: SourceSpan) -> Diagnostic {
        var notes: [String] = []
        if let guess = Suggestion.closest(to: name, in: visibleVariableNames + GeneratedValue.names) { notes.append("did you mean '$\(guess)'?") }
        if visibleVariableNames.isEmpty { notes.append("no variables are set; set one with 'let \(name) = VALUE'") }
        // A target from a .http file or a collection often reads its environment's variables.
        if session.environment == nil, case let environments = EnvironmentFiles.names(in: environmentDirectory), !environments.isEmpty {
            notes.append("or choose an environment that sets it: set env \(environments.joined(separator: "|"))")
        }
        return failure("undefined variable '\(name)'", at: span, notes: notes)
    }

    func assign(_ name: Word, _ value: ValueExpression) throws {
        let key = name.literal ?? ""
        if session.commandLineNames.contains(key) {
            // The value given (`wsh f.wsh token=...`) stands in for `env NAME`'s and is as secret.
            if case .env(_, _, false, _) = value, var given = variable(named: key), !given.isSecret {
                given.isSecret = true
                setVariable(key, given)
                session.mask.add(given.value)
            }
            return
        }
        let result = try evaluate(value)
        let source = result.isSecret ? SecretSource(text: currentFile.text(value.span.start..<value.span.end), expression: value) : nil
        var variable = Variable(value: result.text, isSecret: result.isSecret, environmentName: result.environmentName, secretSource: source)
        variable.typed = result.typed
        if case .query(let query) = value, query.source == .bytes || query.source == .rawBytes, query.filters.isEmpty { variable.holdsBytes = true }
        setVariable(key, variable)
        if result.isSecret { session.mask.add(result.text) }
    }

    func unset(_ names: [Word]) throws {
        for word in names {
            let name = try expand(word).text
            guard variable(named: name) != nil else { throw undefinedVariable(name, at: word.span) }
            setVariable(name, nil)
            session.commandLineNames.remove(name)
        }
    }

    func listVariables() {
        for name in visibleVariableNames {
            guard let variable = variable(named: name) else { continue }
            let file = variable.environmentFile.map { "  (\($0))" } ?? ""
            if variable.isSecret {
                io.out("\(name) = ***\(variable.environmentName.map { "  (env \($0))" } ?? file)\n")
            } else {
                io.out(mask("\(name) = \(variable.writtenValue)") + file + "\n")
            }
        }
    }

    /// A value as the language would write it: bare when it is one plain word, else a string.
    nonisolated static func quoted(_ text: String) -> String {
        let plain = !text.isEmpty && text.unicodeScalars.allSatisfy { scalar in
            scalar != " " && !scalar.isASCIIControl && !"\"';{}#$\\".unicodeScalars.contains(scalar)
        }
        if plain { return text }
        return "\"" + text.map(escaped).joined() + "\""
    }

    /// A character as a `"..."` string writes it.
    nonisolated static func escaped(_ char: Character) -> String {
        switch char {
        case "\"": "\\\""
        case "\\": "\\\\"
        case "\n": "\\n"
        case "\r": "\\r"
        case "\r\n": "\\r\\n"
        case "\t": "\\t"
        case "$": "\\$"
        default:
            // Other control characters as `\uXXXX`, so that what is written reads back the same.
            char.unicodeScalars.contains(where: \.isASCIIControl)
                ? char.unicodeScalars.map { $0.isASCIIControl ? Lexer.unicodeEscape($0) : String($0) }.joined()
                : String(char)
        }
    }

    func echo(_ words: [Word]) throws {
        var pieces: [String] = []
        for word in words { pieces.append(try expand(word).text) }
        io.out(mask(pieces.joined(separator: " ")) + "\n")
    }

    func printValues(_ values: [ValueExpression]) throws {
        var pieces: [String] = []
        for value in values { pieces.append(try evaluate(value).text) }
        io.out(mask(pieces.joined(separator: " ")) + "\n")
    }
}

/// The result of evaluating a value expression.
struct EvaluatedValue {
    var text: String
    var isSecret: Bool
    var environmentName: String?
    /// The value with its type; nil is text (a string).
    var typed: JSONValue?
}

extension Run {
    func evaluate(_ value: ValueExpression) throws -> EvaluatedValue {
        switch value {
        case .word(let word):
            let expanded = try expand(word)
            // `["a","b"]` holds its JSON text, not the word's `[a,b]`.
            if let json = try jsonWordValue(word) { return EvaluatedValue(text: json.compactText, isSecret: expanded.isSecret, typed: json) }
            return EvaluatedValue(text: expanded.text, isSecret: expanded.isSecret, typed: try typedValue(of: word))
        case .env(let nameWord, let fallback, let isPublic, _):
            let name = try expand(nameWord).text
            if let value = EnvironmentOverlay.value(name) {
                return EvaluatedValue(text: value, isSecret: !isPublic, environmentName: name)
            }
            guard let fallback else {
                throw failure("environment variable '\(name)' is not set", at: nameWord.span,
                              notes: ["set it before starting wsh, or give a default: env \(name) or \"VALUE\""])
            }
            return EvaluatedValue(text: try expand(fallback).text, isSecret: !isPublic, environmentName: name)
        case .query(let query):
            let value = try queryValue(query)
            return EvaluatedValue(text: Self.text(value), isSecret: try isFilteredSecret(query), typed: value)
        }
    }
}
