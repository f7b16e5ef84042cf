import Checks
import Foundation

/// Parses queries on the last response: `.main.temp`, `.list[0]`, `."a key"`, `.list[*].id`,
/// `.list[1:3]`, `..id`, `status`, `header NAME`, `headers NAME`, `body`, `bytes`, `time`, `url`,
/// `redirects`, `version`, each followed by any number of `| FILTER [ARGUMENTS]`.
struct QueryParser {
    let file: SourceFile

    /// A query using all of `words`, nil when the words are not a query.
    func query(_ words: [Word]) throws(Diagnostic) -> Query? {
        let (query, used) = try prefixQuery(words[...])
        guard let query else { return nil }
        if used < words.count {
            throw Diagnostic(.parse, "unexpected text after the query", file: file, span: words[used].span,
                             notes: ["a query may end with filters: '| length', '| split \",\"', ..."])
        }
        return query
    }

    /// The query at the start of `words` and how many words it used.
    func prefixQuery(_ words: ArraySlice<Word>) throws(Diagnostic) -> (Query?, Int) {
        guard let first = words.first else { return (nil, 0) }
        let start = words.startIndex
        var used = 1
        var source: Query.Source
        var filters: [QueryFilter] = []
        var templates: [Query.FilterTemplate] = []
        var pathVariables: [Query.PathVariable] = []
        var span = first.span
        let named: [String: Query.Source] = ["status": .status, "body": .body, "bytes": .bytes, "rawbytes": .rawBytes, "time": .time, "url": .url, "redirects": .redirects, "hops": .hops,
                                             "version": .version]
        if let text = first.bare, let named = named[text] {
            source = named
        } else if let text = first.bare, let bar = text.firstIndex(of: "|"), let named = named[String(text[..<bar])] {
            // `bytes|length`, as a path takes `.list|length`: one filter written against the word.
            let name = String(text[text.index(after: bar)...])
            guard let filter = QueryFilter(name: name, arguments: []) else {
                throw Diagnostic(.parse, "unknown filter '\(name)'", file: file, span: first.span, notes: Self.unknownFilterNotes(name))
            }
            source = named
            filters = [filter]
        } else if first.bare == "cookie" {
            guard words.count > 1, let spec = words[start + 1].literal, !spec.isEmpty else {
                throw Diagnostic(.parse, "expected a cookie name after 'cookie'", file: file, span: first.span,
                                 notes: ["cookie sid, cookie sid.expires"])
            }
            let attributes = ["domain", "path", "expires", "max-age", "secure", "httponly", "samesite", "value"]
            if let dot = spec.lastIndex(of: "."), attributes.contains(spec[spec.index(after: dot)...].lowercased()) {
                source = .cookie(name: String(spec[..<dot]), attribute: spec[spec.index(after: dot)...].lowercased())
            } else {
                source = .cookie(name: spec, attribute: nil)
            }
            span = span.union(words[start + 1].span)
            used = 2
        } else if let keyword = first.bare, keyword == "header" || keyword == "headers" {
            guard words.count > 1, let name = words[start + 1].literal else {
                throw Diagnostic(.parse, "expected a header name after '\(keyword)'", file: file, span: first.span)
            }
            source = keyword == "header" ? .header(name) : .headers(name)
            span = span.union(words[start + 1].span)
            used = 2
        } else if let expression = jsonPathText(first) {
            do {
                _ = try JSONPath(expression)
            } catch {
                throw Diagnostic(.parse, "'\(expression)' is not a JSONPath query: \(error.description)", file: file, span: first.span,
                                 notes: ["JSONPath starts at the body: $.list[0].id, $..id, $.items[?@.n > 4].id"])
            }
            source = .jsonPath(expression)
        } else if first.parts.first.map({ !$0.quoted && $0.literalText.hasPrefix(".") }) ?? false {
            let (steps, inlineFilters) = try path(first)
            guard let variables = Self.pathVariables(steps, names: first.variableNames) else {
                throw Diagnostic(.parse, "a variable in a query stands for a whole key or index", file: file, span: first.span,
                                 notes: [".items[$i], .[$key], .$key"])
            }
            source = .path(steps)
            pathVariables = variables
            filters = inlineFilters
        } else if let name = first.loneVariable(followedByPath: true) {
            // `$show.author`, `$list[0]`: a path into the variable's value, not its text with `.author` after.
            let rest = Word(parts: Array(first.parts.dropFirst()), span: SourceSpan(start: first.parts[1].span.start, end: first.span.end))
            let (steps, inlineFilters) = try path(rest)
            guard let variables = Self.pathVariables(steps, names: rest.variableNames) else {
                throw Diagnostic(.parse, "a variable in a query stands for a whole key or index", file: file, span: first.span,
                                 notes: ["$list[$i], $object.$key"])
            }
            source = .variablePath(name: name, steps: steps, word: first)
            pathVariables = variables
            filters = inlineFilters
        } else if !(first.bare?.hasPrefix("|") ?? false), Self.filterFollows(words, after: start)
                    || ((first.loneVariable != nil || first.isQuoted) && Self.pipeFollows(words, after: start)) {
            // A value written in the statement, filtered: `$b | jsonpath "$.a"`, `"2026-11-25" | toDate`.
            // After `$b` or a quoted word a `|` is a filter's: `$s | lenght` is an unknown filter, not text.
            source = .value(first)
        } else {
            return (nil, 0)
        }
        while start + used < words.count, let pipe = words[start + used].bare, pipe.hasPrefix("|") {
            var name = String(pipe.dropFirst())
            var filterSpan = words[start + used].span
            used += 1
            if name.isEmpty {
                guard start + used < words.count, let next = words[start + used].bare else {
                    throw Diagnostic(.parse, "expected a filter after '|'", file: file, span: filterSpan, notes: [Self.filterList])
                }
                name = next
                filterSpan = filterSpan.union(words[start + used].span)
                used += 1
            }
            guard let arity = QueryFilter.arities.first(where: { $0.name == name })?.arguments else {
                throw Diagnostic(.parse, "unknown filter '\(name)'", file: file, span: filterSpan, notes: Self.unknownFilterNotes(name))
            }
            var argumentWords: [Word] = []
            // `toDate` takes a format when one follows, quoted or from a variable: `| toDate "%d/%m/%Y"`, `| toDate $format`.
            if name == "toDate", start + used < words.count, words[start + used].isQuoted || words[start + used].loneVariable != nil {
                argumentWords.append(words[start + used])
                filterSpan = filterSpan.union(words[start + used].span)
                used += 1
            }
            while argumentWords.count < arity {
                guard start + used < words.count, !(words[start + used].bare?.hasPrefix("|") ?? false) else {
                    throw Diagnostic(.parse, "'\(name)' takes \(arity) value\(arity == 1 ? "" : "s")", file: file, span: filterSpan,
                                     notes: ["for example: | \(name) \(Self.exampleArguments[name] ?? "\"...\"")"])
                }
                argumentWords.append(words[start + used])
                filterSpan = filterSpan.union(words[start + used].span)
                used += 1
            }
            // Arguments that hold variables are known when the query runs; until then, stand-ins.
            let literals = argumentWords.map(\.literal)
            let arguments = literals.map { $0 ?? (name == "nth" ? "0" : "") }
            guard let filter = QueryFilter(name: name, arguments: arguments) else {
                throw Diagnostic(.parse, "'\(name)' takes a whole number", file: file, span: filterSpan)
            }
            if literals.contains(nil) {
                templates.append(Query.FilterTemplate(index: filters.count, name: name, arguments: argumentWords, span: filterSpan))
            } else if let problem = filter.argumentProblem {
                throw Diagnostic(.parse, "'\(name)': \(problem)", file: file, span: filterSpan)
            }
            filters.append(filter)
            span = span.union(filterSpan)
        }
        return (Query(source: source, filters: filters, filterTemplates: templates, pathVariables: pathVariables, span: span), used)
    }

    /// Arguments to show a filter with, in the note when too few are given.
    private static let exampleArguments: [String: String] = [
        "nth": "0", "split": "\",\"", "join": "\", \"", "replace": "\"-\" \" \"", "replaceRegex": "\"[0-9]+\" N",
        "urlQueryParam": "page", "charsetDecode": "iso-8859-1", "regex": "\"id=([0-9]+)\"", "format": "\"%Y-%m-%d\"",
        "dateFormat": "\"%Y-%m-%d\"", "jsonpath": "\"$.items[0]\"", "xpath": "\"//title\"",
    ]

    static let filterList = "filters: " + QueryFilter.arities.map(\.name).joined(separator: ", ")

    /// Whether the word after `index` is `|` and a filter's name follows it (`| toDate`, `|toDate`).
    static func filterFollows(_ words: ArraySlice<Word>, after index: Int) -> Bool {
        guard index + 1 < words.endIndex, let pipe = words[index + 1].bare, pipe.hasPrefix("|") else { return false }
        let name = pipe == "|" ? (index + 2 < words.endIndex ? words[index + 2].bare : nil) : String(pipe.dropFirst())
        return QueryFilter.arities.contains { $0.name == name }
    }

    /// Whether the word after `index` starts with `|`.
    static func pipeFollows(_ words: ArraySlice<Word>, after index: Int) -> Bool {
        index + 1 < words.endIndex && words[index + 1].bare?.hasPrefix("|") == true
    }

    /// Hurl's filters that wsh writes another way, by Hurl's name.
    static let hurlForms = [
        "location": "Hurl's redirects nth 0 location is hops | jsonpath \"$[0].location\": hops lists each redirect's url, "
            + "status and location; url is where the last led; under set follow off, header Location is the header as sent",
        "decode": "Hurl's decode is charsetDecode NAME: bytes | charsetDecode gb2312",
    ]

    /// The notes of an unknown filter: the name it likely means, or how wsh writes Hurl's, and the list.
    static func unknownFilterNotes(_ name: String) -> [String] {
        if let form = hurlForms[name] { return [form, filterList] }
        let guess = Suggestion.closest(to: name, in: QueryFilter.arities.map(\.name))
        return (guess.map { ["did you mean '\($0)'?"] } ?? []) + [filterList]
    }

    /// A word's text as written when it is a JSONPath query: `$.a`, `$[0]`, `$..a`, `$.*`; not a
    /// lone `$` or `$.50` (a price).
    private func jsonPathText(_ word: Word) -> String? {
        guard let part = word.parts.first, !part.quoted, case .literal(let text) = part.content else { return nil }
        let bytes = Array(text.utf8)
        guard bytes.count >= 2, bytes[0] == UInt8(ascii: "$"),
              bytes[1] == UInt8(ascii: "[")
                || (bytes[1] == UInt8(ascii: ".") && bytes.count > 2 && !(UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[2]))
        else { return nil }
        return file.text(word.span.start..<word.span.end)
    }

    /// The steps of a path word; `|length` written against the word is accepted too.
    private func path(_ word: Word) throws(Diagnostic) -> ([Query.PathStep], [QueryFilter]) {
        var chars: [(Character, Bool)] = []
        // Where each character starts in the file: bare text is the source as written.
        var offsets: [Int] = []
        // Where a quoted part with no text stands (`.""`, the member named ""), which adds no character.
        var emptyQuoted: Set<Int> = []
        for part in word.parts {
            guard case .literal(let text) = part.content else {
                // A variable stands for a whole key or index (`.items[$i]`, `.[$key]`, `.$key`): one
                // quoted stand-in character, given its value when the query runs (``Query/pathVariables``).
                chars.append((Self.variableStandIn, true))
                offsets.append(part.span.start)
                continue
            }
            if part.quoted && text.isEmpty { emptyQuoted.insert(chars.count) }
            var offset = part.span.start
            for character in text {
                chars.append((character, part.quoted))
                offsets.append(offset)
                if !part.quoted { offset += character.utf8.count }
            }
        }
        func fail(_ message: String) -> Diagnostic {
            Diagnostic(.parse, message, file: file, span: word.span,
                       notes: ["queries look like .main.temp, .list[0].dt_txt, .list[-1], .\"key with space\""])
        }
        var steps: [Query.PathStep] = []
        var index = 0
        while index < chars.count {
            let (char, quoted) = chars[index]
            if char == "|" && !quoted {
                let name = String(chars[(index + 1)...].map(\.0))
                // `.s| length`: the filter is the next word, which a blank before `|` would have let it be.
                if name.isEmpty {
                    throw Diagnostic(.parse, "a blank goes before '|' when the filter is the next word", file: file, span: word.span,
                                     notes: ["\(String(chars[..<index].map(\.0))) | length, or \(String(chars[..<index].map(\.0)))|length"])
                }
                guard let filter = QueryFilter(name: name, arguments: []) else {
                    throw Diagnostic(.parse, "unknown filter '\(name)'", file: file, span: word.span, notes: Self.unknownFilterNotes(name))
                }
                try checkFanOut(steps, word)
                return (steps, [filter])
            }
            if char == "." && !quoted, index + 1 < chars.count, chars[index + 1] == (".", false) {
                // `..name`: every `name` at any depth.
                index += 2
                var key = ""
                while index < chars.count, !(chars[index].1 == false && [".", "[", "|"].contains(chars[index].0)) {
                    key.append(chars[index].0)
                    index += 1
                }
                guard !key.isEmpty else { throw fail("expected a key after '..'") }
                steps.append(.descendants(key))
            } else if char == "." && !quoted {
                index += 1
                var key = ""
                var sawQuoted = false
                while index < chars.count {
                    let (c, q) = chars[index]
                    sawQuoted = sawQuoted || emptyQuoted.contains(index)
                    if !q && (c == "." || c == "[" || c == "|") { break }
                    sawQuoted = sawQuoted || q
                    key.append(c)
                    index += 1
                }
                sawQuoted = sawQuoted || emptyQuoted.contains(index)
                if key.isEmpty && !sawQuoted {
                    if index < chars.count, chars[index].0 == "[" { continue }
                    if index >= chars.count || chars[index].0 == "|" { continue }
                    throw fail("empty key in query")
                }
                steps.append(.key(key))
            } else if char == "[" && !quoted, index + 1 < chars.count, chars[index + 1] == ("?", false) {
                let start = offsets[index]
                guard let end = Lexer.elementFilterEnd(file.bytes, at: start) else { throw fail("missing ']' after '[?'") }
                steps.append(.filter(try elementFilter(start..<end)))
                while index < chars.count, offsets[index] < end { index += 1 }
            } else if char == "[" && !quoted {
                guard let close = chars[index...].firstIndex(where: { $0.0 == "]" && !$0.1 }) else {
                    // `.list[ 0 ]`: the blank ended the word at the `[`.
                    throw fail(index + 1 == chars.count ? "missing ']' in query: no blanks go inside '[ ]' (.list[0]), but in '[? ]'" : "missing ']' in query")
                }
                let inside = chars[(index + 1)..<close]
                let text = String(inside.map(\.0))
                if let first = inside.first, first.1 {
                    steps.append(.key(text))
                } else if inside.isEmpty, emptyQuoted.contains(index + 1) {
                    steps.append(.key(""))
                } else if let number = Int(text) {
                    steps.append(.index(number))
                } else if text == "*" {
                    steps.append(.all)
                } else if let colon = text.firstIndex(of: ":") {
                    let from = text[..<colon].trimmingCharacters(in: .whitespaces), to = text[text.index(after: colon)...].trimmingCharacters(in: .whitespaces)
                    guard from.isEmpty || Int(from) != nil, to.isEmpty || Int(to) != nil else { throw fail("a slice is [FROM:TO], whole numbers") }
                    steps.append(.slice(Int(from), Int(to)))
                } else if let digits = Optional(text.hasPrefix("-") ? text.dropFirst() : text[...]), !digits.isEmpty,
                          digits.allSatisfy({ ("0"..."9").contains($0) }) {
                    throw fail("index \(text.shortened(40)) is too large")
                } else {
                    throw fail("expected a number, '*', a slice or '? EXPR' inside '[ ]'")
                }
                index = close + 1
            } else {
                throw fail("unexpected '\(char)' in query")
            }
        }
        try checkFanOut(steps, word)
        return (steps, [])
    }

    /// The character a variable's place in a path holds until the query runs.
    static let variableStandIn: Character = "\u{FFFC}"

    /// The steps that hold a variable, in order, and the variables' names; an error when a
    /// variable is only part of a key or stands where no key or index can.
    static func pathVariables(_ steps: [Query.PathStep], names: [String]) -> [Query.PathVariable]? {
        var variables: [Query.PathVariable] = []
        for (index, step) in steps.enumerated() {
            switch step {
            case .key(let key) where key == String(variableStandIn):
                guard variables.count < names.count else { return nil }
                variables.append(Query.PathVariable(step: index, name: names[variables.count]))
            case .key(let key) where key.contains(variableStandIn): return nil
            case .descendants(let key) where key.contains(variableStandIn): return nil
            default: continue
            }
        }
        return variables.count == names.count ? variables : nil
    }

    /// The most `[? ...]` one query may hold, nested or not: each nesting parses its inside again.
    static let maximumElementFilters = 16

    /// `[? EXPR]` spanning `range` of the file: EXPR parsed as `expect` parses its expression.
    private func elementFilter(_ range: Range<Int>) throws(Diagnostic) -> ElementFilter {
        let span = SourceSpan(start: range.lowerBound, end: range.upperBound)
        let inside = (range.lowerBound + 2)..<(range.upperBound - 1)
        let opened = file.bytes[inside].indices.count { file.bytes[$0] == UInt8(ascii: "[") && $0 + 1 < inside.upperBound && file.bytes[$0 + 1] == UInt8(ascii: "?") }
        if opened >= Self.maximumElementFilters {
            throw Diagnostic(.parse, "a query may hold at most \(Self.maximumElementFilters) '[? ...]'", file: file, span: span)
        }
        var lexer = Lexer(file: file, range: inside)
        var words: [Word] = []
        for token in try lexer.tokenize() {
            switch token {
            case .word(let word): words.append(word)
            case .endOfInput: break
            default:
                throw Diagnostic(.parse, "'[? ...]' holds one expression", file: file, span: token.span,
                                 notes: ["for example: .books[? .price < 10].title"])
            }
        }
        let opener = Word(parts: [WordPart(content: .literal("[?"), quoted: false, span: SourceSpan(start: span.start, end: span.start + 2))],
                          span: SourceSpan(start: span.start, end: span.start + 2))
        guard !words.isEmpty else {
            throw Diagnostic(.parse, "'[?' needs an expression before ']'", file: file, span: span,
                             notes: ["for example: .books[? .price < 10].title, .tags[? . == \"new\"]"])
        }
        do {
            return ElementFilter(condition: try Parser(file: file).expectation(words, command: opener), span: span)
        } catch {
            // The expression is expect's, but the usage to show is the filter's.
            var diagnostic = error
            diagnostic.notes = diagnostic.notes.map { $0.hasPrefix("usage: expect") ? "usage: [? VALUE OP VALUE], [? VALUE [not] exists]; for example .books[? .price < 10].title" : $0 }
            throw diagnostic
        }
    }

    /// The most `[*]`, slices and `..` in one query: each is a level of the walk's recursion.
    static let maximumFanOut = 64

    private func checkFanOut(_ steps: [Query.PathStep], _ word: Word) throws(Diagnostic) {
        let count = steps.count { step in
            switch step {
            case .all, .slice, .descendants, .filter: true
            case .key, .index: false
            }
        }
        if count > Self.maximumFanOut {
            throw Diagnostic(.parse, "a query may hold at most \(Self.maximumFanOut) of [*], [a:b] and ..", file: file, span: word.span)
        }
    }
}

extension WordPart {
    var literalText: String {
        if case .literal(let text) = content { return text }
        return ""
    }
}
