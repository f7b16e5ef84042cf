import Foundation

/// Splits source text into tokens (LANGUAGE.md, "Lexical rules").
///
/// A word is a run of characters other than blanks, `;`, `{`, `}`, `"` and `'`, joined with any
/// strings written against it: `"..."` with escapes and `$name` expanded, `'...'` raw as in sh.
/// `#` at the start of a word begins a comment. A `\` before a newline continues the line. A `;`
/// written against `type=` stays in the word, so that a multipart file item reads as curl's
/// `-F` writes it: `photo@a.raw;type=image/png`.
public struct Lexer {
    let file: SourceFile
    private let bytes: [UInt8]
    private var index = 0
    /// The first word of the statement being read, while in it: `|` after a command that prints
    /// begins a pipe, whose command is the rest of the line.
    private var command: String?
    private var atStatementStart = true
    /// Where the word being read began: `[? ...]` stays in a word only in a query path (`.list[? ...]`).
    private var wordStart = 0

    /// Statements whose output `| COMMAND` may take; in `print`, `let` and `expect` `|` is a query filter.
    static let pipeable: Set<String> = ["call", "show", "targets", "history", "state", "vars", "help", "echo", "plugins", "serve",
                                        "get", "post", "put", "patch", "delete", "head", "options", "request"]

    public init(file: SourceFile) {
        self.file = file
        self.bytes = file.bytes
    }

    /// A lexer of the bytes in `range` of `file` only (the inside of `[? ...]`), spans still counted in the file.
    init(file: SourceFile, range: Range<Int>) {
        self.file = file
        self.bytes = Array(file.bytes[..<min(range.upperBound, file.bytes.count)])
        self.index = range.lowerBound
    }

    /// All tokens of the file, ending with `.endOfInput`.
    public mutating func tokenize() throws(Diagnostic) -> [Token] {
        var tokens: [Token] = []
        while true {
            let token = try next()
            tokens.append(token)
            if case .endOfInput = token { return tokens }
        }
    }

    private mutating func next() throws(Diagnostic) -> Token {
        let token = try nextToken()
        switch token {
        case .word(let word):
            if atStatementStart { command = word.bare }
            atStatementStart = false
        case .pipe:
            break
        case .end, .openBrace, .closeBrace, .endOfInput:
            atStatementStart = true
            command = nil
        }
        return token
    }

    private mutating func nextToken() throws(Diagnostic) -> Token {
        skipBlanksAndComments()
        guard index < bytes.count else { return .endOfInput(SourceSpan(start: bytes.count, end: bytes.count)) }
        let start = index
        switch bytes[index] {
        case UInt8(ascii: "\n"), UInt8(ascii: ";"):
            index += 1
            return .end(SourceSpan(start: start, end: index))
        case UInt8(ascii: "{") where Self.templateLength(bytes, at: index) == nil:
            index += 1
            return .openBrace(SourceSpan(start: start, end: index))
        case UInt8(ascii: "}"):
            index += 1
            return .closeBrace(SourceSpan(start: start, end: index))
        case UInt8(ascii: "|") where command.map(Self.pipeable.contains) == true:
            return pipe()
        default:
            return .word(try word())
        }
    }

    /// `| COMMAND`: the command runs to the end of the line or an unquoted `;`, as a POSIX shell
    /// reads it: `call x | awk '{print $1; print $2}'; echo done` pipes into the awk program.
    private mutating func pipe() -> Token {
        let start = index
        index += 1
        var quote: UInt8?
        while index < bytes.count, bytes[index] != UInt8(ascii: "\n") {
            let byte = bytes[index]
            if let open = quote {
                if byte == open { quote = nil } else if byte == UInt8(ascii: "\\"), open == UInt8(ascii: "\""), index + 1 < bytes.count { index += 1 }
            } else if byte == UInt8(ascii: "'") || byte == UInt8(ascii: "\"") {
                quote = byte
            } else if byte == UInt8(ascii: "\\"), index + 1 < bytes.count, bytes[index + 1] != UInt8(ascii: "\n") {
                index += 1
            } else if byte == UInt8(ascii: ";") {
                break
            }
            index += 1
        }
        let text = String(decoding: bytes[(start + 1)..<index], as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        return .pipe(PipeCommand(text: text, span: SourceSpan(start: start, end: index)))
    }

    private mutating func skipBlanksAndComments() {
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\r") {
                index += 1
            } else if byte == UInt8(ascii: "\\"), let skip = lineContinuationLength(at: index) {
                index += skip
            } else if byte == UInt8(ascii: "#") {
                while index < bytes.count, bytes[index] != UInt8(ascii: "\n") { index += 1 }
            } else {
                return
            }
        }
    }

    /// The length of `\` + newline (or `\` + CRLF) at `position`, if there is one.
    private func lineContinuationLength(at position: Int) -> Int? {
        guard position + 1 < bytes.count else { return nil }
        if bytes[position + 1] == UInt8(ascii: "\n") { return 2 }
        if bytes[position + 1] == UInt8(ascii: "\r"), position + 2 < bytes.count, bytes[position + 2] == UInt8(ascii: "\n") { return 3 }
        return nil
    }

    private static func endsWord(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"), UInt8(ascii: "\n"),
             UInt8(ascii: ";"), UInt8(ascii: "{"), UInt8(ascii: "}"):
            true
        default:
            false
        }
    }

    private mutating func word() throws(Diagnostic) -> Word {
        let start = index
        wordStart = index
        var parts: [WordPart] = []
        while index < bytes.count, !Self.endsWord(bytes[index]) || Self.templateLength(bytes, at: index) != nil
                || Self.isTypeSuffix(bytes, at: index) {
            if bytes[index] == UInt8(ascii: "\"") {
                try string(into: &parts)
            } else if bytes[index] == UInt8(ascii: "'") {
                try rawString(into: &parts)
            } else if bytes[index] == UInt8(ascii: "\\"), lineContinuationLength(at: index) != nil {
                break
            } else {
                try bareText(into: &parts)
            }
        }
        return Word(parts: parts, span: SourceSpan(start: start, end: index))
    }

    private mutating func bareText(into parts: inout [WordPart]) throws(Diagnostic) {
        // Bare text is taken as written, templates included, so each literal is one slice of the source.
        var literalStart = index
        func flush(_ end: Int) {
            if end > literalStart {
                let text = String(decoding: bytes[literalStart..<end], as: UTF8.self)
                parts.append(WordPart(content: .literal(text), quoted: false, span: SourceSpan(start: literalStart, end: end)))
            }
        }
        while index < bytes.count, bytes[index] != UInt8(ascii: "\""), bytes[index] != UInt8(ascii: "'") {
            if bytes[index] == UInt8(ascii: "{"), let length = Self.templateLength(bytes, at: index) {
                index += length
                continue
            }
            if bytes[index] == UInt8(ascii: "["), Self.startsQuery(bytes, at: wordStart), let close = Self.elementFilterEnd(bytes, at: index) {
                // `[? EXPR]` in a query: blanks and strings inside stay in the word, read again when the query is parsed.
                index = close
                continue
            }
            if Self.endsWord(bytes[index]), !Self.isTypeSuffix(bytes, at: index) { break }
            if bytes[index] == UInt8(ascii: "\\"), lineContinuationLength(at: index) != nil { break }
            if bytes[index] == UInt8(ascii: "$"), let variable = try variable(quoted: false) {
                flush(variable.span.start)
                parts.append(variable)
                literalStart = index
                continue
            }
            index += 1
        }
        flush(index)
    }

    private mutating func string(into parts: inout [WordPart]) throws(Diagnostic) {
        let open = index
        index += 1
        var literal: [UInt8] = []
        var literalStart = index
        func flush(_ end: Int, force: Bool = false) {
            if !literal.isEmpty || force {
                parts.append(WordPart(content: .literal(String(decoding: literal, as: UTF8.self)), quoted: true, span: SourceSpan(start: literalStart, end: end)))
                literal.removeAll()
            }
        }
        let partsBefore = parts.count
        while true {
            guard index < bytes.count, bytes[index] != UInt8(ascii: "\n") else {
                throw Diagnostic(.parse, "unterminated string", file: file, span: SourceSpan(start: open, end: open + 1),
                                 notes: ["a string opened here has no closing '\"'"])
            }
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                index += 1
                flush(index - 1, force: parts.count == partsBefore)
                return
            }
            if byte == UInt8(ascii: "\\") {
                guard index + 1 < bytes.count else { index += 1; continue }
                let escaped: UInt8
                switch bytes[index + 1] {
                case UInt8(ascii: "\""): escaped = UInt8(ascii: "\"")
                case UInt8(ascii: "\\"): escaped = UInt8(ascii: "\\")
                case UInt8(ascii: "n"): escaped = UInt8(ascii: "\n")
                case UInt8(ascii: "t"): escaped = UInt8(ascii: "\t")
                case UInt8(ascii: "r"): escaped = UInt8(ascii: "\r")
                case UInt8(ascii: "$"): escaped = UInt8(ascii: "$")
                case UInt8(ascii: "u"):
                    let (scalar, length) = try unicodeEscape(at: index)
                    literal.append(contentsOf: String(scalar).utf8)
                    index += length
                    continue
                default:
                    throw Diagnostic(.parse, "unknown escape '\\\(String(decoding: [bytes[index + 1]], as: UTF8.self))' in string",
                                     file: file, span: SourceSpan(start: index, end: index + 2),
                                     notes: ["the escapes are \\\" \\\\ \\n \\r \\t \\$ \\uXXXX"])
                }
                literal.append(escaped)
                index += 2
                continue
            }
            if byte == UInt8(ascii: "$"), let variable = try variable(quoted: true) {
                flush(variable.span.start)
                parts.append(variable)
                literalStart = index
                continue
            }
            literal.append(byte)
            index += 1
        }
    }

    /// The character of a `\uXXXX` escape at `start` (its backslash) and the bytes it takes: four
    /// hex digits, or two such escapes for a UTF-16 surrogate pair (`\uD83D\uDE00`), as in JSON.
    private func unicodeEscape(at start: Int) throws(Diagnostic) -> (Unicode.Scalar, Int) {
        func unit(at position: Int) -> UInt32? {
            guard position + 6 <= bytes.count, bytes[position] == UInt8(ascii: "\\"), bytes[position + 1] == UInt8(ascii: "u")
            else { return nil }
            var value: UInt32 = 0
            for byte in bytes[(position + 2)..<(position + 6)] {
                guard let digit = Self.hexValue(byte) else { return nil }
                value = value << 4 | digit
            }
            return value
        }
        func failure(_ message: String, length: Int) -> Diagnostic {
            Diagnostic(.parse, message, file: file, span: SourceSpan(start: start, end: min(start + length, bytes.count)),
                       notes: ["\\u takes four hex digits, \\u00e9 for é; a character past U+FFFF is a surrogate pair, \\uD83D\\uDE00"])
        }
        guard let first = unit(at: start) else { throw failure("'\\u' needs four hex digits", length: 2) }
        if (0xD800...0xDBFF).contains(first) {
            guard let second = unit(at: start + 6), (0xDC00...0xDFFF).contains(second),
                  let scalar = Unicode.Scalar(0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00))
            else { throw failure("'\\u\(Self.hex(first))' must be followed by the second half of its surrogate pair, \\uDC00 to \\uDFFF", length: 6) }
            return (scalar, 12)
        }
        guard let scalar = Unicode.Scalar(first) else {
            throw failure("'\\u\(Self.hex(first))' is the second half of a surrogate pair, with no first half before it", length: 6)
        }
        // A NUL would end the text where C reads it (a file's path), not where wsh does.
        if first == 0 { throw failure("'\\u0000' cannot be in a string", length: 6) }
        return (scalar, 6)
    }

    /// `\u` and four hex digits for a scalar of the Basic Multilingual Plane, as strings write it.
    static func unicodeEscape(_ scalar: Unicode.Scalar) -> String {
        "\\u" + hex(scalar.value)
    }

    private static func hex(_ unit: UInt32) -> String {
        let digits = String(unit, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }

    private static func hexValue(_ byte: UInt8) -> UInt32? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(byte - UInt8(ascii: "A") + 10)
        default: nil
        }
    }

    /// `'...'`: the text as written, with no escapes and no expansion (a raw string as in sh); it ends on its line.
    private mutating func rawString(into parts: inout [WordPart]) throws(Diagnostic) {
        let open = index
        index += 1
        while index < bytes.count, bytes[index] != UInt8(ascii: "'"), bytes[index] != UInt8(ascii: "\n") { index += 1 }
        guard index < bytes.count, bytes[index] == UInt8(ascii: "'") else {
            throw Diagnostic(.parse, "unterminated string", file: file, span: SourceSpan(start: open, end: open + 1),
                             notes: ["a string opened here has no closing \"'\""])
        }
        let text = String(decoding: bytes[(open + 1)..<index], as: UTF8.self)
        parts.append(WordPart(content: .literal(text), quoted: true, span: SourceSpan(start: open + 1, end: index)))
        index += 1
    }

    /// Whether a query starts at `position`: a path (`.a`) or a JSONPath (`$.a`, `$[0]`).
    static func startsQuery(_ bytes: [UInt8], at position: Int) -> Bool {
        if bytes[position] == UInt8(ascii: ".") { return true }
        guard bytes[position] == UInt8(ascii: "$") else { return false }
        // `$.a`, `$[?@.a]` (JSONPath), or a path into a variable: `$d.items[? .n > 1]`, `$list[? . > 1]`.
        var cursor = position + 1
        while cursor < bytes.count, isNameByte(bytes[cursor], first: cursor == position + 1) { cursor += 1 }
        return cursor < bytes.count && (bytes[cursor] == UInt8(ascii: ".") || bytes[cursor] == UInt8(ascii: "["))
    }

    /// The end (after its `]`) of a `[? ...]` element filter opening at `position`, on the same line,
    /// with `[ ]` nested inside and `]` in strings skipped; nil when none opens there or it does not close.
    static func elementFilterEnd(_ bytes: [UInt8], at position: Int, upTo limit: Int? = nil) -> Int? {
        let end = limit ?? bytes.count
        guard position + 1 < end, bytes[position] == UInt8(ascii: "["), bytes[position + 1] == UInt8(ascii: "?") else { return nil }
        var depth = 0
        var quote: UInt8?
        var cursor = position
        while cursor < end, bytes[cursor] != UInt8(ascii: "\n") {
            let byte = bytes[cursor]
            if let open = quote {
                if byte == open {
                    quote = nil
                } else if byte == UInt8(ascii: "\\"), open == UInt8(ascii: "\""), cursor + 1 < end {
                    cursor += 1
                }
            } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                quote = byte
            } else if byte == UInt8(ascii: "[") {
                depth += 1
            } else if byte == UInt8(ascii: "]") {
                depth -= 1
                if depth == 0 { return cursor + 1 }
            }
            cursor += 1
        }
        return nil
    }

    /// Whether `;type=` followed by a media type starts at `position`: part of a word (a multipart
    /// file's type, as curl's `-F` writes it), not the end of a statement.
    static func isTypeSuffix(_ bytes: [UInt8], at position: Int) -> Bool {
        // Asked at every byte that ends a word: the marker is not made into an array each time
        // (that made loading 10,000 targets a fifth slower).
        guard bytes[position] == UInt8(ascii: ";") else { return false }
        let marker = typeSuffixMarker
        guard position > 0, !endsWord(bytes[position - 1]),
              position + marker.count < bytes.count,
              bytes[position..<(position + marker.count)].elementsEqual(marker) else { return false }
        return !endsWord(bytes[position + marker.count]) && bytes[position + marker.count] != UInt8(ascii: "\"")
            && bytes[position + marker.count] != UInt8(ascii: "'")
    }

    private static let typeSuffixMarker = Array(";type=".utf8)

    /// `$name` or `${name}` at `index`; nil (and no advance) when `$` is not followed by a name.
    private mutating func variable(quoted: Bool) throws(Diagnostic) -> WordPart? {
        let start = index
        var cursor = index + 1
        if cursor < bytes.count, bytes[cursor] == UInt8(ascii: "{") {
            cursor += 1
            let nameStart = cursor
            while cursor < bytes.count, Self.isNameByte(bytes[cursor], first: cursor == nameStart) { cursor += 1 }
            guard cursor < bytes.count, bytes[cursor] == UInt8(ascii: "}"), cursor > nameStart else {
                throw Diagnostic(.parse, "bad variable reference", file: file, span: SourceSpan(start: start, end: max(cursor, start + 2)),
                                 notes: ["write ${name}, where name is ASCII letters, digits and _"])
            }
            index = cursor + 1
            return WordPart(content: .variable(String(decoding: bytes[nameStart..<cursor], as: UTF8.self)), quoted: quoted, span: SourceSpan(start: start, end: index))
        }
        let nameStart = cursor
        while cursor < bytes.count, Self.isNameByte(bytes[cursor], first: cursor == nameStart) { cursor += 1 }
        guard cursor > nameStart else { return nil }
        index = cursor
        return WordPart(content: .variable(String(decoding: bytes[nameStart..<cursor], as: UTF8.self)), quoted: quoted, span: SourceSpan(start: start, end: index))
    }

    /// The length of a `{name}` (or `{name=VALUE}`, a default) path template at `position`: part of
    /// a word, not a block.
    static func templateLength(_ bytes: [UInt8], at position: Int) -> Int? {
        guard bytes[position] == UInt8(ascii: "{") else { return nil }
        var cursor = position + 1
        while cursor < bytes.count, isNameByte(bytes[cursor], first: cursor == position + 1) || (cursor > position + 1 && bytes[cursor] == UInt8(ascii: "-")) {
            cursor += 1
        }
        guard cursor > position + 1 else { return nil }
        if cursor < bytes.count, bytes[cursor] == UInt8(ascii: "=") {
            cursor += 1
            while cursor < bytes.count, bytes[cursor] > 0x20, bytes[cursor] != 0x7F,
                  !"{}\"';$#\\".utf8.contains(bytes[cursor]) {
                cursor += 1
            }
        }
        guard cursor < bytes.count, bytes[cursor] == UInt8(ascii: "}") else { return nil }
        return cursor + 1 - position
    }

    static func isNameByte(_ byte: UInt8, first: Bool) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "_"): true
        case UInt8(ascii: "0")...UInt8(ascii: "9"): !first
        default: false
        }
    }
}

extension Lexer {
    /// True when `text` ends inside an open `{` block or after a trailing `\`: the prompt then
    /// reads a continuation line. An open string is an error to report, not a reason to wait;
    /// inside a block it is reported when the block closes, so no line of the block runs alone.
    public static func needsMoreInput(_ text: String) -> Bool {
        var scanner = EntryScanner()
        scanner.add(text)
        return scanner.needsMoreInput
    }

    static func endsWordOrContinues(_ byte: UInt8) -> Bool {
        endsWord(byte) || byte == UInt8(ascii: "\\")
    }
}

/// Whether an entry read line by line is complete: each line is scanned once as it is added,
/// so reading an entry of N lines is linear in its length (scanning it all again at each line
/// took 4 s for 8,000 lines of an unclosed block).
struct EntryScanner {
    /// `{` opened and not closed.
    private(set) var depth = 0
    private var openQuote: UInt8?
    /// A backslash inside a double-quoted string: the next byte is taken as it is.
    private var escaping = false
    private var inComment = false
    private var atWordStart = true
    /// What was added, less trailing line breaks, ends inside a string, or with a `\`.
    private var endsInString = false
    private var endsWithBackslash = false

    /// True when the entry so far ends inside an open `{` block or after a trailing `\`.
    var needsMoreInput: Bool {
        if endsInString { return depth > 0 }
        return endsWithBackslash || depth > 0
    }

    /// Scans `text`, one or more lines (a block recalled from the history holds line breaks).
    mutating func add(_ text: String) {
        let bytes = Array(text.utf8)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            defer {
                if byte != UInt8(ascii: "\n"), byte != UInt8(ascii: "\r") {
                    endsInString = openQuote != nil
                    endsWithBackslash = byte == UInt8(ascii: "\\")
                }
            }
            index += 1
            if escaping {
                escaping = false
                // A string ends on its line, a backslash before the line break too (the parser's rule).
                if byte == UInt8(ascii: "\n") { openQuote = nil }
                continue
            }
            if inComment {
                guard byte == UInt8(ascii: "\n") else { continue }
                inComment = false
            }
            if let quote = openQuote {
                if byte == UInt8(ascii: "\\"), quote == UInt8(ascii: "\"") {
                    escaping = true
                    continue
                }
                if byte == quote || byte == UInt8(ascii: "\n") { openQuote = nil }
            } else {
                switch byte {
                case UInt8(ascii: "\""), UInt8(ascii: "'"): openQuote = byte
                case UInt8(ascii: "{"):
                    // `{name}` is a path template, part of a word, not a block.
                    if let length = Lexer.templateLength(bytes, at: index - 1) {
                        index += length - 1
                        atWordStart = false
                        continue
                    }
                    depth += 1
                case UInt8(ascii: "}"): depth -= 1
                case UInt8(ascii: "#") where atWordStart:
                    inComment = true
                    continue
                default: break
                }
            }
            atWordStart = Lexer.endsWordOrContinues(byte)
        }
    }
}
