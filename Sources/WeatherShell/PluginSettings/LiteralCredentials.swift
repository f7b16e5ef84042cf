import Foundation
import Targets

/// Credentials typed literally, found so the history file can hold `***` in their place: the line
/// is remembered before it runs, so the credential is not yet a secret. Variables stay, as the
/// history may show their names.
enum LiteralCredentials {
    /// A stretch of the typed text and what the history keeps instead.
    typealias Replacement = (range: Range<Int>, text: String)

    /// Whether `let NAME = VALUE` sets a credential typed as text, as `save` judges it: NAME is a
    /// credential's name (`api_token`), or the line hides part of VALUE (a URL's password).
    static func isTyped(name: String, value: String) -> Bool {
        let line = "let \(name) = \(Run.quoted(value))"
        return Redaction.isCredentialName(name) || hidden(in: line) != line
    }

    /// `text` with `***` for: the credential after `bearer`, and the part after the `:` of
    /// `basic USER:PASS`, `digest USER:PASS` and `header NAME:VALUE`, in every `plugin auth`
    /// statement; the value of a request item, declaration field or `let` named like a secret
    /// (`appid==...`, `X-API-Key:...`, `Cookie:...`, `let token = "..."`); a URL's password and its
    /// query values named like secrets; and the same in an `import curl` command.
    /// `actions` names the arguments of declared reactors' actions given for parameters named like
    /// credentials (``argumentCredentials(_:actions:)``), which are hidden too.
    static func hidden(in text: String, actions: ActionCredentials = [:]) -> String {
        // A line that names no declared reactor with a credential parameter, and declares no
        // action, is judged as before any reactor was declared.
        let namesAction = text.contains("action") || actions.keys.contains { text.contains($0) }
        guard mayHoldCredential(text) || namesAction else { return text }
        guard let replacements = replacements(in: text, actions: actions) else { return hiddenAfterKeyword(in: text) }
        return replaced(text, replacements)
    }

    /// `text` with each credential ``hidden(in:)`` finds overwritten by as many `*` as it has
    /// characters, so that a caret under the line still points where it did: for the source line
    /// an error quotes.
    static func hiddenKeepingColumns(in text: String) -> String {
        guard mayHoldCredential(text) else { return text }
        let original = Array(text.utf8)
        var ranges: [Range<Int>]
        if let replacements = replacements(in: text) {
            ranges = merged(replacements).map { changed($0.range, in: original, to: $0.text) }
        } else {
            ranges = hiddenWordByWord(original)
        }
        var bytes = original
        for range in ranges.reversed() where !range.isEmpty {
            let width = String(decoding: bytes[range], as: UTF8.self).unicodeScalars.count
            bytes.replaceSubrange(range, with: repeatElement(UInt8(ascii: "*"), count: width))
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The part of `range` that `replacement` changes: a replacement that rewrites a word (a URL
    /// with its password masked) changes only what lies between what it keeps at either end.
    private static func changed(_ range: Range<Int>, in bytes: [UInt8], to replacement: String) -> Range<Int> {
        let kept = Array(replacement.utf8), old = bytes[range]
        let head = zip(kept, old).prefix { $0 == $1 }.count
        let tail = zip(kept.dropFirst(head).reversed(), old.dropFirst(head).reversed()).prefix { $0 == $1 }.count
        return (range.lowerBound + head)..<(range.upperBound - tail)
    }

    /// For a line that does not lex (an unclosed quote), each blank-separated word on its own: a
    /// URL's password and secret query values, the value of an item or field named like a secret;
    /// after `plugin auth`, everything from its credential keyword on.
    private static func hiddenWordByWord(_ bytes: [UInt8]) -> [Range<Int>] {
        let text = String(decoding: bytes, as: UTF8.self)
        if text.contains("plugin"), text.contains("auth") { return rangeHiddenAfterKeyword(in: text).map { [$0] } ?? [] }
        let redaction = Redaction()
        let isBlank = { (byte: UInt8) in byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
        var ranges: [Range<Int>] = []
        var index = 0
        var afterAuthFlag = false
        while index < bytes.count {
            while index < bytes.count, isBlank(bytes[index]) { index += 1 }
            let start = index
            while index < bytes.count, !isBlank(bytes[index]) { index += 1 }
            let word = String(decoding: bytes[start..<index], as: UTF8.self)
            if afterAuthFlag {
                let colon = bytes[start..<index].firstIndex(of: UInt8(ascii: ":")).map { $0 + 1 } ?? start
                ranges.append(colon..<index)
                afterAuthFlag = false
            } else if isAuthFlag(word) {
                afterAuthFlag = true
            } else if word.contains("://") {
                ranges.append(changed(start..<index, in: bytes, to: redaction.maskedURL(word)))
            } else if let separator = bytes[start..<index].firstIndex(where: { $0 == UInt8(ascii: "=") || $0 == UInt8(ascii: ":") }),
                      namesSecret(word[...]) {
                var valueStart = separator + 1
                while valueStart < index, bytes[valueStart] == UInt8(ascii: "=") { valueStart += 1 }
                ranges.append(valueStart..<index)
            }
        }
        return ranges
    }

    /// Where the credentials in `text` are and what replaces each; nil when `text` does not lex.
    private static func replacements(in text: String, actions known: ActionCredentials = [:]) -> [Replacement]? {
        let file = SourceFile(name: "<history>", directory: "", text: text)
        var lexer = Lexer(file: file)
        guard let tokens = try? lexer.tokenize() else { return nil }
        var replacements: [Replacement] = []
        for token in tokens {
            if case .pipe(let pipe) = token { replacements += pipeCredentials(pipe, bytes: file.bytes) }
        }
        let split = statements(tokens)
        let actions = text.contains("action") ? declaredActions(in: split, adding: known) : known
        for statement in split where !statement.isEmpty {
            replacements += argumentCredentials(statement, actions: actions)
            // Each comma that starts a field its own word, however blanks stand around it; a field
            // continued on a line of its own, after the comma that ends the one before or not.
            let fields = fieldsSeparated(statement, bytes: file.bytes)
            let continued = fields.first?.bare == "," ? Array(fields.dropFirst()) : fields
            if statement[0].bare == "state" || statement[0].bare == "emit" {
                replacements += fieldCredentials(Array(fields.dropFirst()), bytes: file.bytes)
            } else if startsField(continued) {
                replacements += fieldCredentials(continued, bytes: file.bytes)
            } else if statement.count > 2, statement[0].bare == "plugin", statement[1].bare == "auth" {
                replacements += pluginAuthCredentials(statement, bytes: file.bytes)
            } else if statement.count > 2, statement[0].bare == "import", statement[1].bare == "curl" {
                replacements += CurlCredentials.hidden(statement, bytes: file.bytes)
            } else {
                replacements += statementCredentials(statement, bytes: file.bytes)
            }
        }
        return replacements
    }

    /// The credentials of the shell command after `|`, read as words: a `curl` command's by its
    /// options (as `import curl`), any other command's items and URLs (`http ... token==x`,
    /// `wget --password=x`). Text the lexer refuses is hidden from its first suspicious word.
    private static func pipeCredentials(_ pipe: PipeCommand, bytes: [UInt8]) -> [Replacement] {
        let start = pipe.span.start + 1
        guard start < pipe.span.end else { return [] }
        let text = String(decoding: bytes[start..<pipe.span.end], as: UTF8.self)
        guard mayHoldCredential(text) else { return [] }
        let file = SourceFile(name: "<history>", directory: "", text: text)
        var lexer = Lexer(file: file)
        var replacements: [Replacement] = []
        if let tokens = try? lexer.tokenize() {
            for statement in statements(tokens) {
                // `a | b && c`: each command of the sh pipeline or list on its own.
                for command in statement.split(whereSeparator: { ["|", "||", "&&", "&"].contains($0.bare) }) where !command.isEmpty {
                    let words = Array(command)
                    replacements += words[0].bare == "curl"
                        ? CurlCredentials.hidden(inCommand: Array(words.dropFirst()), bytes: file.bytes)
                        : statementCredentials(words, bytes: file.bytes)
                }
            }
        } else if let hidden = rangeHiddenAfterKeyword(in: text) {
            replacements.append((hidden, "***"))
        }
        return replacements.map { ($0.range.lowerBound + start..<$0.range.upperBound + start, $0.text) }
    }

    /// Whether `text` may hold anything ``hidden(in:)`` hides: a separator of items, URLs or `let`.
    private static func mayHoldCredential(_ text: String) -> Bool {
        text.utf8.contains { $0 == UInt8(ascii: ":") || $0 == UInt8(ascii: "=") || $0 == UInt8(ascii: "?") }
            || text.contains("auth") || text.contains("-a") || text.contains("let")
    }

    /// `text` with each replacement made; replacements that overlap become one `***` over both.
    private static func replaced(_ text: String, _ replacements: [Replacement]) -> String {
        guard !replacements.isEmpty else { return text }
        var bytes = Array(text.utf8)
        for replacement in merged(replacements).reversed() {
            bytes.replaceSubrange(replacement.range, with: Array(replacement.text.utf8))
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The replacements in order, those that overlap made one `***` over both.
    private static func merged(_ replacements: [Replacement]) -> [Replacement] {
        var merged: [Replacement] = []
        for replacement in replacements.sorted(by: { $0.range.lowerBound < $1.range.lowerBound }) {
            if let last = merged.last, replacement.range.lowerBound < last.range.upperBound {
                merged[merged.count - 1] = (last.range.lowerBound..<max(last.range.upperBound, replacement.range.upperBound), "***")
            } else {
                merged.append(replacement)
            }
        }
        return merged
    }

    /// `bearer TOKEN`, `basic USER:PASS`, `digest USER:PASS`, `header NAME:VALUE`, their keywords in
    /// any case; after a word that is no keyword (`bearr`, a typo the plugin refuses), the next
    /// word whole: it was typed as the credential.
    private static func pluginAuthCredentials(_ statement: [Word], bytes: [UInt8]) -> [Replacement] {
        var replacements: [Replacement] = []
        var position = 2
        while position + 1 < statement.count {
            let value = statement[position + 1]
            switch statement[position].bare?.lowercased() {
            case "on", "off", "everywhere":
                position += 1
                continue
            case "host": break
            case "basic", "digest", "header":
                replacements += hiddenAfterSeparator(value, bytes: bytes)
                if bytes[value.span.end - 1] == UInt8(ascii: ":") {
                    if position + 2 < statement.count, !AuthShellPlugin.keywords.contains(statement[position + 2].bare ?? "") {
                        // `basic alice: pw`: nothing after the `:`, the credential is the next word.
                        replacements += hiddenWhole(statement[position + 2])
                        position += 1
                    } else if hasLiteralText(value.parts[...]) {
                        // `basic sk_test_123:`, Stripe's: the user is the key, the password empty.
                        replacements += [(value.span.start..<(value.span.end - 1), "***")]
                    }
                }
            default: replacements += hiddenWhole(value)
            }
            position += 2
        }
        return replacements
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
    static func hiddenWhole(_ word: Word) -> [Replacement] {
        guard hasLiteralText(word.parts[...]) else { return [] }
        return [(word.span.start..<word.span.end, "***")]
    }

    /// What follows the first `:` written in the word, unless that is only variables; the whole
    /// word when no `:` is written in it (it may come from a variable, with the secret after it).
    static func hiddenAfterSeparator(_ word: Word, bytes: [UInt8]) -> [Replacement] {
        guard let (separator, index) = firstSeparator(in: word, bytes: bytes, separators: [UInt8(ascii: ":")]) else {
            return hiddenWhole(word)
        }
        return hiddenAfter(separator, ofPart: index, in: word, bytes: bytes)
    }

    /// The position of the first of `separators` written in a literal part of the word, and that part's index.
    static func firstSeparator(in word: Word, bytes: [UInt8], separators: [UInt8]) -> (Int, Int)? {
        for (index, part) in word.parts.enumerated() {
            guard case .literal = part.content,
                  let position = bytes[part.span.start..<part.span.end].firstIndex(where: separators.contains) else { continue }
            return (position, index)
        }
        return nil
    }

    /// From after `separator` (and any `=` right after it: `==`, `:=`) to the end of the word, as
    /// `***` and the quote still open there; nothing when only variables follow.
    static func hiddenAfter(_ separator: Int, ofPart index: Int, in word: Word, bytes: [UInt8]) -> [Replacement] {
        let part = word.parts[index]
        var start = separator + 1
        while start < part.span.end, bytes[start] == UInt8(ascii: "=") { start += 1 }
        guard start < part.span.end || hasLiteralText(word.parts[(index + 1)...]) else { return [] }
        // `Authorization:"Bearer $token"`: only a scheme and blanks are written, the secret is a variable.
        if word.parts[(index + 1)...].contains(where: { if case .variable = $0.content { true } else { false } }) {
            let written = String(decoding: bytes[start..<part.span.end], as: UTF8.self)
                + word.parts[(index + 1)...].map { if case .literal(let text) = $0.content { text } else { "" } }.joined()
            let scheme = written.trimmingCharacters(in: .whitespaces).lowercased()
            if ["", "bearer", "basic", "digest", "token"].contains(scheme) { return [] }
        }
        let closing = openQuote(bytes, from: word.span.start, to: start).map { String(UnicodeScalar($0)) } ?? ""
        return [(start..<word.span.end, "***" + closing)]
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

    static func hasLiteralText(_ parts: ArraySlice<WordPart>) -> Bool {
        parts.contains { part in
            if case .literal(let text) = part.content { return !text.isEmpty }
            return false
        }
    }

    /// For text the lexer refuses (an unterminated string): everything after the first credential
    /// keyword of a `plugin auth` line; else from the first word that may hold a credential (an
    /// item named like a secret, a URL, a curl option, the name of a `let`) to the end.
    private static func hiddenAfterKeyword(in text: String) -> String {
        let words = text.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == ";" })
        if let plugin = words.firstIndex(of: "plugin"), words.index(after: plugin) < words.endIndex,
           words[words.index(after: plugin)] == "auth",
           let keyword = words.first(where: { ["bearer", "basic", "digest", "header"].contains($0.lowercased()) })
            ?? words[(plugin + 2)...].first(where: { $0 != "on" }) {
            return String(text[..<keyword.endIndex]) + " ***"
        }
        var previous: Substring = ""
        for word in words.dropFirst() {
            defer { previous = word }
            // A URL holds a credential in its user-info or its query; `http://127.0.0.1:8080` holds none.
            let suspicious = (word.contains("://") && word.contains("@")) || (word.contains("?") && word.contains("="))
                || (word.contains(where: { $0 == "=" || $0 == ":" }) && namesSecret(word))
                || CurlCredentials.valueOptions.contains(String(previous)) || (previous == "let" && namesSecret(word))
                || isAuthFlag(String(previous)) || authFlagLength(String(word)) != nil
            if suspicious { return String(text[..<word.startIndex]) + "***" }
        }
        return text
    }

    /// Where ``hiddenAfterKeyword(in:)`` starts hiding, to the end of `text`, in UTF-8 offsets;
    /// nil when it hides nothing.
    private static func rangeHiddenAfterKeyword(in text: String) -> Range<Int>? {
        let hidden = hiddenAfterKeyword(in: text)
        guard hidden != text else { return nil }
        return zip(hidden.utf8, text.utf8).prefix { $0 == $1 }.count..<text.utf8.count
    }

    /// Whether a word's name, before its `=` or `:` and past any leading quote or `$`, is named like a secret.
    private static func namesSecret(_ word: Substring) -> Bool {
        let name = word.drop(while: { $0 == "\"" || $0 == "'" || $0 == "$" }).prefix { $0 != "=" && $0 != ":" }
        return Redaction().isSensitiveName(String(name))
    }
}
