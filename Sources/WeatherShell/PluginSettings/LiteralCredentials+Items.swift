import Foundation
import Targets

extension LiteralCredentials {
    /// The verbs whose first argument is a URL.
    private static let requestVerbs: Set<String> = ["get", "post", "put", "patch", "delete", "head", "options"]

    /// The credentials of any other statement: its items and URLs (``itemCredentials(_:bytes:)``),
    /// a URL where one is expected (`get URL`, `request METHOD URL`, `set base|proxy URL`, `base URL`),
    /// and a secret `let`.
    static func statementCredentials(_ statement: [Word], bytes: [UInt8]) -> [Replacement] {
        var urlPosition: Int?
        switch statement[0].bare {
        case let verb? where requestVerbs.contains(verb): urlPosition = 1
        case "request": urlPosition = 2
        case "set" where statement.count > 2 && ["base", "proxy"].contains(statement[1].bare): urlPosition = 2
        case "base": urlPosition = 1
        default: break
        }
        var replacements = statement[0].bare == "let" ? letCredentials(statement) : []
        var afterSecretHeader = false
        let isRequest = urlPosition != nil && statement[0].bare != "set" && statement[0].bare != "base"
        let bearer = isRequest && saysBearer(statement)
        var position = 1
        while position < statement.count {
            let word = statement[position]
            defer { position += 1 }
            // `Authorization: Bearer tok`, as curl's -H is written (an error here): the words that
            // follow a secret header, up to the next item, flag or redirection, are its value.
            if afterSecretHeader, isPlainWord(word, bytes: bytes), !isRequestFlag(word) {
                replacements += hiddenWhole(word)
                continue
            }
            afterSecretHeader = false
            if isRequest, let (hidden, last) = flagCredentials(statement, at: position, bearer: bearer, bytes: bytes) {
                replacements += hidden
                position = last
                continue
            }
            if position == urlPosition {
                replacements += urlCredentials(word, bytes: bytes, isURL: true)
            } else {
                replacements += itemCredentials(word, bytes: bytes)
                afterSecretHeader = secretItem(word, bytes: bytes).map { bytes[$0.separator] == UInt8(ascii: ":") && !$0.isAssignment } ?? false
            }
        }
        return replacements
    }

    /// `-a` and `--auth`, whose next word is a credential.
    static func isAuthFlag(_ text: String?) -> Bool {
        text == "-a" || text == "--auth"
    }

    /// How long the flag is in a word that writes `-a`'s value in it: `--auth=` (7), HTTPie's glued
    /// `-auser:pw` (2), a mistyped `--auth:user:pw` or `--authh=...` (7); nil for any other word.
    static func authFlagLength(_ text: String) -> Int? {
        if text.hasPrefix("--auth"), !text.hasPrefix("--auth-type"), text.count > 7 { return 7 }
        if text.hasPrefix("-a"), text.count > 2 { return 2 }
        return nil
    }

    /// One of a request's flags (`--offline`, `-v`, `--auth-type=bearer`) or a call's (`--all`).
    private static func isRequestFlag(_ word: Word) -> Bool {
        guard let first = word.parts.first, !first.quoted, case .literal(let text) = first.content else { return false }
        let name = text.split(separator: "=", maxSplits: 1).first.map(String.init) ?? text
        return knownFlagNames.contains(name)
    }

    /// A word with no item separator that does not start a redirection or pipe.
    private static func isPlainWord(_ word: Word, bytes: [UInt8]) -> Bool {
        let source = bytes[word.span.start..<word.span.end]
        guard let first = source.first, first != UInt8(ascii: ">"), first != UInt8(ascii: "|") else { return false }
        return !source.contains { $0 == UInt8(ascii: "=") || $0 == UInt8(ascii: ":") || $0 == UInt8(ascii: "@") }
    }

    /// Where the item's separator is, when the word is an item whose name is named like a secret.
    private static func secretItem(_ word: Word, bytes: [UInt8]) -> (separator: Int, index: Int, isAssignment: Bool)? {
        let separators = [UInt8(ascii: "="), UInt8(ascii: ":")]
        guard let (separator, index) = firstSeparator(in: word, bytes: bytes, separators: separators),
              word.parts[..<index].allSatisfy({ if case .literal = $0.content { true } else { false } }) else { return nil }
        let written = word.parts[..<index].map { if case .literal(let text) = $0.content { text } else { "" } }.joined()
        let name = written + String(decoding: bytes[word.parts[index].span.start..<separator], as: UTF8.self)
        let isScheme = separator + 2 < word.span.end && bytes[separator + 1] == UInt8(ascii: "/") && bytes[separator + 2] == UInt8(ascii: "/")
        // Not a name: a path (`/x?key=1`), a query (`.tags[? .key == "k"]`, `[1]`).
        let isName = !name.isEmpty && !name.hasPrefix(".") && !name.hasPrefix("[") && !name.contains("[?")
            && !name.contains(where: { $0 == "/" || $0 == " " })
        guard isName, !isScheme, isSecretName(name) else { return nil }
        let isAssignment = separator + 1 < word.span.end && bytes[separator + 1] == UInt8(ascii: "=")
        return (separator, index, isAssignment)
    }

    /// Whether an item's name is a secret's: a plain one named like a secret (``Redaction/isSensitiveName(_:)``);
    /// one with brackets (`auth[password]`, `password[]`, `a[b][api_key]`, nested JSON's) when one of
    /// its words is a credential's name (``Redaction/isCredentialName(_:)``), so `filter[keyboard]` is none.
    private static func isSecretName(_ name: String) -> Bool {
        guard name.contains("[") else { return Redaction().isSensitiveName(name) }
        return name.split(whereSeparator: { $0 == "[" || $0 == "]" }).contains { Redaction.isCredentialName(String($0)) }
    }

    /// A JSON text written whole, with its members named like secrets hidden; a request item or
    /// declaration field named like a secret (`appid==k`, `token=t`,
    /// `X-API-Key:k`, `Authorization:"Bearer t"`, `Cookie:sid=1`), with its value hidden; else,
    /// in a word that holds a URL, the URL's password and its query values named like secrets;
    /// else the members named like secrets of a JSON value after `:=`.
    static func itemCredentials(_ word: Word, bytes: [UInt8]) -> [Replacement] {
        // A JSON text written whole (`sample '{"access_token": "t"}'`): its members named like
        // secrets hidden, the rest kept, rather than everything after its first `:`.
        if let literal = word.literal, literal.first == "{" || literal.first == "[", let masked = maskedJSON(literal[...]) {
            return [(word.span.start..<word.span.end, masked)]
        }
        if word.literal == nil, let json = jsonCredentials(withVariables: word) { return json }
        if let item = secretItem(word, bytes: bytes) {
            return hiddenAfter(item.separator, ofPart: item.index, in: word, bytes: bytes)
        }
        let url = urlCredentials(word, bytes: bytes, isURL: false)
        guard url.isEmpty, let (separator, _) = firstSeparator(in: word, bytes: bytes, separators: [UInt8(ascii: ":")]) else { return url }
        return jsonMemberCredentials(word, after: separator, bytes: bytes)
    }

    /// The word's URL with its password and its query values named like secrets as
    /// ``Redaction/maskedURL(_:)`` shows them, read from the source as written (variables as
    /// `$name`), when `isURL` or when the word holds `://` or a `?` that is not a query filter's `[?`.
    static func urlCredentials(_ word: Word, bytes: [UInt8], isURL: Bool) -> [Replacement] {
        var range = word.span.start..<word.span.end
        if range.count >= 2, let quote = bytes.indices.contains(range.lowerBound) ? bytes[range.lowerBound] : nil,
           quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'"), bytes[range.upperBound - 1] == quote {
            range = range.lowerBound + 1..<range.upperBound - 1
        }
        let written = String(decoding: bytes[range], as: UTF8.self)
        let question = written.firstIndex(of: "?")
        let looksLikeURL = written.contains("://")
            || (question.map { $0 > written.startIndex && written[written.index(before: $0)] != "[" } ?? false && !written.hasPrefix("."))
        guard isURL || looksLikeURL else { return [] }
        let masked = Redaction().maskedURL(written)
        guard masked != written else { return [] }
        // Each `***` on its own stretch, so that the host and path between a password and a query
        // value stay as written; a value that is only a variable (`token=$t`) stays too.
        guard let stretches = maskedStretches(of: Array(written.utf8), in: Array(masked.utf8)) else { return [(range, masked)] }
        return stretches.filter { !isVariableReference(bytes[(range.lowerBound + $0.lowerBound)..<(range.lowerBound + $0.upperBound)]) }
            .map { (range.lowerBound + $0.lowerBound..<range.lowerBound + $0.upperBound, "***") }
    }

    /// Where in `original` each `***` of `masked` stands: `masked` is `original` with stretches
    /// replaced by `***`. Nil when it cannot be told for certain (then the whole text is replaced).
    static func maskedStretches(of original: [UInt8], in masked: [UInt8]) -> [Range<Int>]? {
        let star = UInt8(ascii: "*")
        var pieces: [ArraySlice<UInt8>] = []
        var start = 0, index = 0
        while index + 3 <= masked.count {
            if masked[index] == star, masked[index + 1] == star, masked[index + 2] == star {
                pieces.append(masked[start..<index])
                index += 3
                start = index
            } else {
                index += 1
            }
        }
        pieces.append(masked[start...])
        guard pieces.count > 1, original.starts(with: pieces[0]) else { return nil }
        var stretches: [Range<Int>] = []
        var position = pieces[0].count
        for (number, piece) in pieces.enumerated().dropFirst() {
            let found: Int?
            if number == pieces.count - 1 {
                let suffix = original.count - piece.count
                found = suffix > position && original[suffix...].elementsEqual(piece) ? suffix : nil
            } else if piece.isEmpty {
                found = nil
            } else if position + 1 <= original.count - piece.count {
                found = (position + 1...(original.count - piece.count)).first { original[$0..<($0 + piece.count)].elementsEqual(piece) }
            } else {
                found = nil
            }
            guard let found else { return nil }
            stretches.append(position..<found)
            position = found + piece.count
        }
        var rebuilt: [UInt8] = []
        var last = 0
        for stretch in stretches {
            rebuilt += original[last..<stretch.lowerBound] + [star, star, star]
            last = stretch.upperBound
        }
        rebuilt += original[last...]
        return rebuilt == masked ? stretches : nil
    }

    /// `$name` or `${name}`, and nothing else.
    private static func isVariableReference(_ text: ArraySlice<UInt8>) -> Bool {
        guard text.first == UInt8(ascii: "$"), text.count >= 2 else { return false }
        let name = text.dropFirst()
        if name.first == UInt8(ascii: "{") { return name.last == UInt8(ascii: "}") && name.count > 2 && !name.dropFirst().dropLast().contains(UInt8(ascii: "}")) }
        return name.allSatisfy { byte in
            byte == UInt8(ascii: "_") || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20)
        }
    }

    /// For `name:='{"token": "t"}'`, a JSON value written literally: its members named like
    /// secrets masked, the value written again as a raw string.
    private static func jsonMemberCredentials(_ word: Word, after separator: Int, bytes: [UInt8]) -> [Replacement] {
        guard separator + 1 < word.span.end, bytes[separator] == UInt8(ascii: ":"), bytes[separator + 1] == UInt8(ascii: "="),
              let literal = word.literal, let assign = literal.firstRange(of: ":=") else { return [] }
        return maskedJSON(literal[assign.upperBound...]).map { [(separator + 2..<word.span.end, $0)] } ?? []
    }

    /// A JSON text with variables in it (`"{\"token\": \"${token}\", \"n\": 1}"`, a `.http`
    /// file's body): nothing when each member named like a secret is given by a variable alone,
    /// else the text as ``maskedJSON(_:)`` writes it. Nil when it is not JSON: a variable in it
    /// stands outside a string, or the text is not JSON at all.
    private static func jsonCredentials(withVariables word: Word) -> [Replacement]? {
        // Each variable read as `***`: a member named like a secret that masking then leaves as it
        // is holds nothing typed.
        let written = word.parts.map { if case .literal(let text) = $0.content { text } else { Redaction.placeholder } }.joined()
        guard written.first == "{" || written.first == "[", let value = try? JSONValue.parse(Array(written.utf8)) else { return nil }
        let masked = Redaction().maskedBody(Data(written.utf8), contentType: "application/json")
        if (try? JSONValue.parse(Array(masked.utf8))) == value { return [] }
        return [(word.span.start..<word.span.end, masked.contains("'") ? Redaction.placeholder : "'" + masked + "'")]
    }

    /// `text`, a JSON object or array, with its members named like secrets as `***`, written as a
    /// raw string (`***` alone when it holds a `'`); nil when it is not JSON or names no secret.
    static func maskedJSON(_ text: Substring) -> String? {
        guard text.first == "{" || text.first == "[" else { return nil }
        let masked = Redaction().maskedBody(Data(text.utf8), contentType: "application/json")
        guard masked != String(text) else { return nil }
        return masked.contains("'") ? "***" : "'" + masked + "'"
    }

    /// `let NAME = VALUE` with NAME a credential's name (``Redaction/isCredentialName(_:)``:
    /// `password`, `api_key`, not `keyword` or `max_tokens`): VALUE, unless it is a query (`.token`),
    /// a variable or `env NAME`; and the default of `let NAME = env VAR or DEFAULT`, which becomes a secret.
    static func letCredentials(_ statement: [Word]) -> [Replacement] {
        guard statement.count >= 3 else { return [] }
        let assigned = statement[2].bare == "="
        if assigned, statement.count >= 4, statement[3].bare == "env" {
            guard statement.count >= 7, statement[5].bare == "or" else { return [] }
            return hiddenWhole(statement[6])
        }
        guard let name = statement[1].bare, Redaction.isCredentialName(name) else { return [] }
        // A query (`let token = .access_token`) reads an answer: nothing typed to hide.
        if assigned, statement[3].bare?.hasPrefix(".") == true { return [] }
        let value = statement.dropFirst(assigned ? 3 : 2)
        // A refused `env` line (`let token = public env X`) types no secret but its default.
        if let env = value.firstIndex(where: { $0.bare == "env" }), value[..<env].allSatisfy({ $0.bare == "public" }) {
            guard let or = value[env...].firstIndex(where: { $0.bare == "or" }), or + 1 < statement.count else { return [] }
            return hiddenWhole(statement[or + 1])
        }
        // Every word of the value, of a line the parser refuses too (`let api_key "k"`, no `=`).
        return value.filter { $0.bare != "=" && $0.bare != "==" }.flatMap(hiddenWhole)
    }
}
