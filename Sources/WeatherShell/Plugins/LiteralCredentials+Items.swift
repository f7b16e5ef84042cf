import Foundation
import Targets

extension LiteralCredentials {
    /// A request item or declaration field named like a secret (`appid==k`, `token=t`,
    /// `X-API-Key:k`, `Authorization:"Bearer t"`, `Cookie:sid=1`), with its value hidden; in a
    /// word that holds a URL, the URL's password and its query values named like secrets.
    static func itemCredentials(_ word: Word, bytes: [UInt8]) -> [Replacement] {
        if let url = urlCredentials(word, bytes: bytes) { return url }
        let separators = [UInt8(ascii: "="), UInt8(ascii: ":")]
        // The name is written in the word's first part: `"X-Key":v` is not an item a user writes.
        guard let first = word.parts.first, case .literal = first.content,
              let (separator, index) = firstSeparator(in: word, bytes: bytes, separators: separators), index == 0 else { return [] }
        let name = String(decoding: bytes[first.span.start..<separator], as: UTF8.self)
        guard Redaction().isSensitiveName(name) else { return jsonMemberCredentials(word, after: separator, bytes: bytes) }
        return hiddenAfter(separator, ofPart: 0, in: word, bytes: bytes)
    }

    /// For `name:='{"token": "t"}'`, a JSON value written literally: its members named like
    /// secrets masked, the value written again as a raw string.
    private static func jsonMemberCredentials(_ word: Word, after separator: Int, bytes: [UInt8]) -> [Replacement] {
        guard separator + 1 < word.span.end, bytes[separator] == UInt8(ascii: ":"), bytes[separator + 1] == UInt8(ascii: "="),
              let literal = word.literal, let assign = literal.firstRange(of: ":=") else { return [] }
        let value = literal[assign.upperBound...]
        guard value.first == "{" || value.first == "[" else { return [] }
        let masked = Redaction().maskedBody(Data(value.utf8), contentType: "application/json")
        guard masked != String(value) else { return [] }
        let written = masked.contains("'") ? "***" : "'" + masked + "'"
        return [(separator + 2..<word.span.end, written)]
    }

    /// For a word with `://` or `?` written in it, the password of its URL and the values of its
    /// query keys named like secrets, as ``Redaction/maskedURL(_:)`` shows them; nil for other words.
    private static func urlCredentials(_ word: Word, bytes: [UInt8]) -> [Replacement]? {
        var isURL = false
        var replacements: [Replacement] = []
        for part in word.parts {
            guard case .literal = part.content else { continue }
            let source = bytes[part.span.start..<part.span.end]
            guard source.contains(UInt8(ascii: "?")) || source.firstRange(of: Array("://".utf8)) != nil else { continue }
            isURL = true
            let written = String(decoding: source, as: UTF8.self)
            let masked = Redaction().maskedURL(written)
            if masked != written { replacements.append((part.span.start..<part.span.end, masked)) }
        }
        return isURL ? replacements : nil
    }

    /// `let NAME = VALUE` with NAME named like a secret: VALUE, unless it is a query (`.token`),
    /// a variable or `env NAME`; and the default of `let NAME = env VAR or DEFAULT`, which becomes a secret.
    static func letCredentials(_ statement: [Word]) -> [Replacement] {
        guard statement.count >= 4, statement[2].bare == "=" else { return [] }
        if statement[3].bare == "env" {
            guard statement.count >= 7, statement[5].bare == "or" else { return [] }
            return hiddenWhole(statement[6])
        }
        guard let name = statement[1].bare, Redaction().isSensitiveName(name), statement.count == 4,
              statement[3].bare?.hasPrefix(".") != true else { return [] }
        return hiddenWhole(statement[3])
    }

    /// In `import curl ...`, the command's credentials as ``CurlCommand`` reads them (header values
    /// named like secrets, `-u USER:PASS`'s password, `-b` cookies, the URL's password and secret
    /// query values), hidden wherever they are written in the statement.
    static func curlCommandCredentials(_ statement: [Word], bytes: [UInt8]) -> [Replacement] {
        var words = Array(statement.dropFirst(2))
        if words.count >= 3, words[words.count - 2].bare == "as" { words.removeLast(2) }
        guard let first = words.first else { return [] }
        let texts = words.compactMap(\.literal)
        let command: CurlCommand
        do {
            command = try CurlCommand(words: words.count == 1 && first.bare != "curl"
                                      ? ShellCommandWords.split(texts.first ?? "") : texts)
        } catch {
            return []
        }
        // A pasted command's URL is a word of its own, masked as any URL is (a value shorter than
        // three bytes is not looked for by value).
        let urls = words.count == 1 ? [] : words.flatMap { urlCredentials($0, bytes: bytes) ?? [] }
        let values = secretValues(of: command)
        guard !values.isEmpty, let last = words.last else { return urls }
        return urls + occurrences(of: values, in: bytes, from: first.span.start, to: last.span.end)
    }

    private static func secretValues(of command: CurlCommand) -> [String] {
        let redaction = Redaction()
        var values = command.headers.filter { redaction.isSensitiveName($0.name) }.map(\.value)
        if let user = command.user, let colon = user.firstIndex(of: ":") {
            values.append(String(user[user.index(after: colon)...]))
        }
        if let url = command.url {
            values += redaction.including(secretsOf: Request(method: .get, url: url)).secretValues
            values += userInfoPassword(url).map { [$0] } ?? []
        }
        return values.filter { !$0.isEmpty }
    }

    /// The password of `scheme://user:password@host...`.
    private static func userInfoPassword(_ url: String) -> String? {
        guard let schemeEnd = url.firstRange(of: "://") else { return nil }
        let authority = url[schemeEnd.upperBound...].prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        guard let at = authority.lastIndex(of: "@"), let colon = authority[..<at].firstIndex(of: ":") else { return nil }
        return String(authority[authority.index(after: colon)..<at])
    }

    /// Each place in `bytes[start..<end]` where one of `values` is written, longest values first.
    private static func occurrences(of values: [String], in bytes: [UInt8], from start: Int, to end: Int) -> [Replacement] {
        var replacements: [Replacement] = []
        var taken = [Bool](repeating: false, count: end - start)
        for value in values.sorted(by: { $0.utf8.count > $1.utf8.count }) {
            let needle = Array(value.utf8)
            var index = start
            while index + needle.count <= end {
                if bytes[index..<index + needle.count].elementsEqual(needle), !taken[(index - start)..<(index - start + needle.count)].contains(true) {
                    replacements.append((index..<index + needle.count, "***"))
                    for offset in index..<index + needle.count { taken[offset - start] = true }
                    index += needle.count
                } else {
                    index += 1
                }
            }
        }
        return replacements
    }
}
