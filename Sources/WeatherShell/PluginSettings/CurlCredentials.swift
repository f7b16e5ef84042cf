import Foundation
import Targets

/// The credentials of an `import curl` command, for the history: found by curl's options, so
/// that a command curl itself would refuse, or one with variables, is still read.
enum CurlCredentials {
    /// Options whose value is a credential or may hold one.
    static let valueOptions: Set<String> = userOptions.union(wholeOptions).union(headerOptions).union(bodyOptions).union(urlOptions)
    private static let userOptions: Set<String> = ["-u", "--user", "-U", "--proxy-user"]
    private static let wholeOptions: Set<String> = ["-b", "--cookie", "--oauth2-bearer"]
    private static let headerOptions: Set<String> = ["-H", "--header", "--proxy-header"]
    private static let bodyOptions: Set<String> = ["-d", "--data", "--data-ascii", "--data-raw", "--data-binary", "--data-urlencode",
                                                   "--json", "-F", "--form", "--form-string"]
    private static let urlOptions: Set<String> = ["-x", "--proxy", "--url"]

    /// In `import curl ...`, the credentials of the command, pasted as words or given as one string.
    static func hidden(_ statement: [Word], bytes: [UInt8]) -> [LiteralCredentials.Replacement] {
        var words = Array(statement.dropFirst(2))
        if words.count >= 3, words[words.count - 2].bare == "as" { words.removeLast(2) }
        guard let first = words.first else { return [] }
        return words.count == 1 && first.bare != "curl" ? inOneString(first, bytes: bytes) : inWords(words, bytes: bytes)
    }

    /// The credentials of a curl command line, given the words after `curl`.
    static func hidden(inCommand words: [Word], bytes: [UInt8]) -> [LiteralCredentials.Replacement] {
        inWords(words, bytes: bytes)
    }

    /// A pasted command: the word after each option that takes a credential, and every URL.
    private static func inWords(_ words: [Word], bytes: [UInt8]) -> [LiteralCredentials.Replacement] {
        var replacements: [LiteralCredentials.Replacement] = []
        var index = 0
        while index < words.count {
            let word = words[index]
            if let option = word.bare, valueOptions.contains(option), index + 1 < words.count {
                let value = words[index + 1]
                if userOptions.contains(option) {
                    replacements += LiteralCredentials.hiddenAfterSeparator(value, bytes: bytes)
                } else if wholeOptions.contains(option) {
                    replacements += LiteralCredentials.hiddenWhole(value)
                } else if headerOptions.contains(option) {
                    replacements += LiteralCredentials.itemCredentials(value, bytes: bytes)
                } else if bodyOptions.contains(option) {
                    replacements += bodyCredentials(value, bytes: bytes)
                } else {
                    replacements += LiteralCredentials.urlCredentials(value, bytes: bytes, isURL: true)
                }
                index += 2
                continue
            }
            replacements += LiteralCredentials.urlCredentials(word, bytes: bytes, isURL: false)
            index += 1
        }
        return replacements
    }

    /// A body written literally: form fields and JSON members named like secrets; a body with
    /// variables is read as an item (`password=$p` stays, `password=x$p` is hidden).
    private static func bodyCredentials(_ word: Word, bytes: [UInt8]) -> [LiteralCredentials.Replacement] {
        guard let text = word.literal else { return LiteralCredentials.itemCredentials(word, bytes: bytes) }
        if let json = LiteralCredentials.maskedJSON(text[...]) { return [(word.span.start..<word.span.end, json)] }
        let masked = String(Redaction().maskedURL("?" + text).dropFirst())
        guard masked != text else { return [] }
        return [(word.span.start..<word.span.end, masked.contains("'") ? "***" : "'" + masked + "'")]
    }

    /// A command in one string: split as sh splits it, its secret values hidden where they are
    /// written; the whole string when it cannot be split, or a value is too short to look for
    /// (a one-letter password would hide that letter everywhere) or is not written as it reads.
    private static func inOneString(_ word: Word, bytes: [UInt8]) -> [LiteralCredentials.Replacement] {
        let written = word.parts.map { part in
            switch part.content {
            case .literal(let text): text
            case .variable(let name): "$" + name
            }
        }.joined()
        guard let arguments = try? ShellCommandWords.split(written) else { return LiteralCredentials.hiddenWhole(word) }
        let found = secretValues(arguments)
        guard found?.isEmpty != true else { return [] }
        let values = found ?? []
        let source = Array(bytes[word.span.start..<word.span.end])
        guard found != nil, values.allSatisfy({ $0.utf8.count >= SecretForms.minimumLength && source.firstRange(of: Array($0.utf8)) != nil }) else {
            return [(word.span.start..<word.span.end, "***")]
        }
        return occurrences(of: values, in: bytes, from: word.span.start, to: word.span.end)
    }

    /// The secret values of a command's arguments, read as ``inWords(_:bytes:)`` reads words;
    /// nil when one cannot be found as written.
    private static func secretValues(_ arguments: [String]) -> [String]? {
        let redaction = Redaction()
        var values: [String] = []
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            guard valueOptions.contains(argument), index + 1 < arguments.count else {
                if argument.contains("://") { values += urlValues(argument) }
                index += 1
                continue
            }
            let value = arguments[index + 1]
            index += 2
            if userOptions.contains(argument) {
                if let colon = value.firstIndex(of: ":") { values.append(String(value[value.index(after: colon)...])) }
            } else if wholeOptions.contains(argument) {
                values.append(value)
            } else if headerOptions.contains(argument) {
                guard let colon = value.firstIndex(of: ":"), redaction.isSensitiveName(String(value[..<colon])) else { continue }
                values.append(String(value[value.index(after: colon)...]).trimmingCharacters(in: .whitespaces))
            } else if bodyOptions.contains(argument) {
                guard let found = bodyValues(value) else { return nil }
                values += found
            } else {
                values += urlValues(value)
            }
        }
        return values.filter { !$0.isEmpty && !$0.hasPrefix("$") }
    }

    /// The values of a body's fields named like secrets, as written; nil for a JSON body that
    /// names a secret, whose values may be written with escapes.
    private static func bodyValues(_ body: String) -> [String]? {
        if body.first == "{" || body.first == "[" { return LiteralCredentials.maskedJSON(body[...]) == nil ? [] : nil }
        return pairValues(body[...])
    }

    /// The values of `key=value` pairs, split at `&`, whose key is named like a secret, as written.
    private static func pairValues(_ text: Substring) -> [String] {
        text.split(separator: "&").compactMap { (pair: Substring) -> String? in
            guard let equals = pair.firstIndex(of: "="), Redaction().isSensitiveKey(String(pair[..<equals])) else { return nil }
            return String(pair[pair.index(after: equals)...])
        }
    }

    /// A URL's password and its query values named like secrets, as written.
    private static func urlValues(_ url: String) -> [String] {
        var values: [String] = []
        if let schemeEnd = url.firstRange(of: "://") {
            let authority = url[schemeEnd.upperBound...].prefix { $0 != "/" && $0 != "?" && $0 != "#" }
            if let at = authority.lastIndex(of: "@"), let colon = authority[..<at].firstIndex(of: ":") {
                values.append(String(authority[authority.index(after: colon)..<at]))
            }
        }
        if let question = url.firstIndex(of: "?") {
            values += pairValues(url[url.index(after: question)...].prefix { $0 != "#" })
        }
        return values
    }

    /// Each place in `bytes[start..<end]` where one of `values` is written, longest values first.
    private static func occurrences(of values: [String], in bytes: [UInt8], from start: Int, to end: Int) -> [LiteralCredentials.Replacement] {
        var replacements: [LiteralCredentials.Replacement] = []
        for value in values.sorted(by: { $0.utf8.count > $1.utf8.count }) {
            let needle = Array(value.utf8)
            var index = start
            while index + needle.count <= end {
                if bytes[index..<index + needle.count].elementsEqual(needle) {
                    replacements.append((index..<index + needle.count, "***"))
                    index += needle.count
                } else {
                    index += 1
                }
            }
        }
        return replacements
    }
}
