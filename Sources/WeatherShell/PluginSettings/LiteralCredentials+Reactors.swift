import Targets

/// The reactors' credentials typed as text: a state field's first value or an emitted value named
/// like a credential (`state api_key = "k"`, `emit token = "t"`), and an action's argument given for
/// a parameter named like one (`sk go sk-live-1` for `action go token`).
extension LiteralCredentials {
    /// For each reactor, its actions' argument positions whose parameters are named like credentials
    /// (``Redaction/isCredentialName(_:)``): `["sk": ["go": [0]]]`.
    typealias ActionCredentials = [String: [String: [Int]]]

    /// The positions of the parameters named like credentials among `parameters`.
    static func credentialPositions(_ parameters: [String]) -> [Int] {
        parameters.indices.filter { Redaction.isCredentialName(parameters[$0]) }
    }

    /// `state NAME = VALUE, ...` and `emit NAME = VALUE, ...`, each field read as the parser reads
    /// it (``Parser/fieldGroups(_:)``: the comma that separates fields is not part of the value, so
    /// `token = "", n = 0` holds the empty string and `token = $t, n = 0` the variable alone):
    /// the value of a field named like a credential, unless it is a query (`.token`), `env NAME`,
    /// variables only or empty, as `let token = ...` is judged; in any other field's value, what a
    /// `let` of that value hides (a JSON text's members named like secrets, a URL's password).
    /// `fields` are the words after `state` or `emit`, or a whole statement that starts `NAME =`
    /// or `NAME=` (``startsField(_:)``: a field continued on a line of its own, after its comma or
    /// not, which does not parse but is remembered), split by ``fieldsSeparated(_:bytes:)``.
    static func fieldCredentials(_ fields: [Word], bytes: [UInt8]) -> [Replacement] {
        var replacements: [Replacement] = []
        for group in Parser.fieldGroups(fields) {
            guard group.count >= 3, group[1].bare == "=", let name = group[0].bare else {
                // A mistyped field (`api_key="k"`, no blanks around `=`) read as an item, as `let`'s is.
                replacements += group.flatMap { itemCredentials($0, bytes: bytes) }
                continue
            }
            let value = group.dropFirst(2)
            guard Redaction.isCredentialName(name) else {
                replacements += value.flatMap { itemCredentials($0, bytes: bytes) }
                continue
            }
            if value.first?.bare?.hasPrefix(".") == true || value.contains(where: { $0.bare == "env" }) { continue }
            replacements += value.flatMap(hiddenWhole)
        }
        return replacements
    }

    /// The words with each comma that starts a field, and an `=` with a blank on one side only
    /// (``equalsSeparated(_:bytes:)``), written as a word of its own, so that a field is read
    /// whatever blanks stand around its comma and its `=`: `,api_key="k"` as `,` and `api_key="k"`;
    /// `token="t",password="p"` as `token="t"`, `,` and `password="p"`; `,api_key` before `=` as `,`
    /// and `api_key`. A comma that starts a field is one followed by a name and `=`; any other
    /// comma stays in its word (`a,b`, a value's text, as the parser reads it).
    static func fieldsSeparated(_ words: [Word], bytes: [UInt8]) -> [Word] {
        // `=` first, so that a comma before `NAME =VALUE` is seen to start a field, and again for
        // what the commas leave (`,token=` as `,` and `token=`).
        let split = words.flatMap { equalsSeparated($0, bytes: bytes) }
        return split.indices.flatMap { position in
            fieldsSeparated(split[position], beforeEquals: position + 1 < split.count && split[position + 1].bare == "=", bytes: bytes)
        }.flatMap { equalsSeparated($0, bytes: bytes) }
    }

    /// A word with an `=` a field's blank left on one side only as words of their own: `api_key=`
    /// as `api_key` and `=`, `="k"` as `=` and `"k"` (`state api_key= "k"`, `password =k`). Only
    /// text written as it reads, unquoted, is split.
    private static func equalsSeparated(_ word: Word, bytes: [UInt8]) -> [Word] {
        guard word.bare != "=", let first = word.parts.first, let last = word.parts.last else { return [word] }
        func plain(_ part: WordPart) -> String? {
            guard !part.quoted, case .literal(let text) = part.content, text.utf8.elementsEqual(bytes[part.span.start..<part.span.end]) else { return nil }
            return text
        }
        if word.parts.count == 1, let text = plain(last), text.hasSuffix("="), Parser.isName(String(text.dropLast())) {
            let equals = last.span.end - 1
            return [Word(parts: literalPart(last.span.start..<equals, bytes: bytes), span: SourceSpan(start: word.span.start, end: equals)),
                    Word(parts: literalPart(equals..<last.span.end, bytes: bytes), span: SourceSpan(start: equals, end: word.span.end))]
        }
        if let text = plain(first), text.hasPrefix("="), !text.hasPrefix("==") {
            let rest = literalPart((first.span.start + 1)..<first.span.end, bytes: bytes) + Array(word.parts.dropFirst())
            guard !rest.isEmpty else { return [word] }
            return [Word(parts: literalPart(first.span.start..<(first.span.start + 1), bytes: bytes), span: SourceSpan(start: word.span.start, end: first.span.start + 1)),
                    Word(parts: rest, span: SourceSpan(start: first.span.start + 1, end: word.span.end))]
        }
        return [word]
    }

    /// One word split at each comma that starts a field (``fieldsSeparated(_:bytes:)``);
    /// `beforeEquals` says the next word is `=`, so a name ending the word starts a field too.
    private static func fieldsSeparated(_ word: Word, beforeEquals: Bool, bytes: [UInt8]) -> [Word] {
        for (index, part) in word.parts.enumerated() {
            // Only text written as it reads: a comma in quotes, or one written `\,`, is a value's.
            guard !part.quoted, case .literal(let text) = part.content,
                  text.utf8.elementsEqual(bytes[part.span.start..<part.span.end]) else { continue }
            for comma in part.span.start..<part.span.end where bytes[comma] == UInt8(ascii: ",") {
                var nameEnd = comma + 1
                while nameEnd < part.span.end, Lexer.isNameByte(bytes[nameEnd], first: nameEnd == comma + 1) { nameEnd += 1 }
                let endsWord = nameEnd == word.span.end && index == word.parts.count - 1
                guard nameEnd > comma + 1,
                      (nameEnd < part.span.end && bytes[nameEnd] == UInt8(ascii: "=")) || (endsWord && beforeEquals) else { continue }
                let head = Array(word.parts[..<index]) + literalPart(part.span.start..<comma, bytes: bytes)
                let tail = literalPart((comma + 1)..<part.span.end, bytes: bytes) + Array(word.parts[(index + 1)...])
                let separator = Word(parts: literalPart(comma..<(comma + 1), bytes: bytes), span: SourceSpan(start: comma, end: comma + 1))
                let rest = Word(parts: tail, span: SourceSpan(start: comma + 1, end: word.span.end))
                return (head.isEmpty ? [] : [Word(parts: head, span: SourceSpan(start: word.span.start, end: comma))])
                    + [separator] + fieldsSeparated(rest, beforeEquals: beforeEquals, bytes: bytes)
            }
        }
        return [word]
    }

    /// The unquoted text of `range`, as a word's part; none when it is empty.
    private static func literalPart(_ range: Range<Int>, bytes: [UInt8]) -> [WordPart] {
        guard !range.isEmpty else { return [] }
        return [WordPart(content: .literal(String(decoding: bytes[range], as: UTF8.self)), quoted: false,
                         span: SourceSpan(start: range.lowerBound, end: range.upperBound))]
    }

    /// Whether the words are fields without `state` or `emit` (a field continued on a line of its
    /// own): they start `NAME = ...`, or with a word `NAME=...` (mistyped without blanks).
    static func startsField(_ words: [Word]) -> Bool {
        if words.count > 2, words[1].bare == "=" { return true }
        guard let first = words.first?.parts.first, !first.quoted, case .literal(let text) = first.content,
              let equals = text.firstIndex(of: "=") else { return false }
        return Parser.isName(String(text[..<equals]))
    }

    /// `REACTOR ACTION ARGS...` for an action whose parameters are named like credentials: those arguments.
    static func argumentCredentials(_ statement: [Word], actions: ActionCredentials) -> [Replacement] {
        guard statement.count > 2, let reactor = statement[0].bare, let action = statement[1].bare,
              let positions = actions[reactor]?[action] else { return [] }
        return positions.filter { $0 + 2 < statement.count }.flatMap { hiddenWhole(statement[$0 + 2]) }
    }

    /// The actions declared in the text itself (`reactor sk { action go token { ... } }; sk go t`), as
    /// their statements come: `reactor NAME`, then `action NAME PARAMS... [unless FIELD]`.
    static func declaredActions(in statements: [[Word]], adding known: ActionCredentials) -> ActionCredentials {
        var actions = known
        var reactor: String?
        for statement in statements where !statement.isEmpty {
            if statement.count == 2, statement[0].bare == "reactor" {
                reactor = statement[1].bare
                if let reactor { actions[reactor] = [:] }
            } else if let reactor, statement.count >= 2, statement[0].bare == "action", let name = statement[1].bare {
                let parameters = statement.dropFirst(2).prefix { $0.bare != "unless" }.map { $0.bare ?? "" }
                actions[reactor, default: [:]][name] = credentialPositions(parameters)
            }
        }
        return actions
    }
}
