/// Parses an RFC 9535 query over its Unicode scalars: segments, selectors, string and integer
/// literals here; filter expressions in `JSONPathFilterParser.swift`. Nesting of brackets,
/// parentheses and function calls is bounded, as the parser recurses once per level.
struct JSONPathParser {
    /// Brackets, parentheses and function calls nested deeper than this are refused.
    static let maximumNesting = 64
    /// The largest integer I-JSON can carry exactly (2^53 - 1): indices and slice bounds are within ±this.
    static let maximumInteger = 9_007_199_254_740_991

    let scalars: [Unicode.Scalar]
    var position = 0
    var depth = 0

    init(_ expression: String) {
        scalars = Array(expression.unicodeScalars)
    }

    /// `$` followed by segments, and nothing else: no whitespace before or after.
    mutating func parseQuery() throws(JSONPathError) -> JSONPathQuery {
        guard peek == "$" else {
            throw error(scalars.isEmpty ? "a query starts with '$', and this one is empty" : "expected '$'")
        }
        position += 1
        let segments = try parseSegments()
        if peek != nil {
            let blankAt = position
            skipBlanks()
            guard let next = peek else { throw error("unexpected whitespace at the end of the query", at: blankAt) }
            throw error("unexpected \(Self.describe(next))")
        }
        return JSONPathQuery(isAbsolute: true, segments: segments)
    }

    /// Segments, each possibly preceded by whitespace; whitespace not followed by a segment is left unread.
    mutating func parseSegments() throws(JSONPathError) -> [JSONPathSegment] {
        var segments: [JSONPathSegment] = []
        while true {
            let before = position
            skipBlanks()
            switch peek {
            case ".":
                segments.append(try parseDotSegment())
            case "[":
                segments.append(JSONPathSegment(isDescendant: false, selectors: try parseBracketed()))
            default:
                position = before
                return segments
            }
        }
    }

    /// `.name`, `.*`, `..name`, `..*` or `..[...]`.
    private mutating func parseDotSegment() throws(JSONPathError) -> JSONPathSegment {
        position += 1
        if peek == "." {
            position += 1
            if peek == "[" {
                return JSONPathSegment(isDescendant: true, selectors: try parseBracketed())
            }
            guard let selector = parseShorthand() else {
                throw error("expected a member name, '*' or '[' after '..'")
            }
            return JSONPathSegment(isDescendant: true, selectors: [selector])
        }
        guard let selector = parseShorthand() else {
            throw error("expected a member name or '*' after '.'")
        }
        return JSONPathSegment(isDescendant: false, selectors: [selector])
    }

    /// `*` or a member name (a letter, `_` or non-ASCII, then those or digits); nil, nothing read, otherwise.
    private mutating func parseShorthand() -> JSONPathSelector? {
        guard let first = peek else { return nil }
        if first == "*" {
            position += 1
            return .wildcard
        }
        guard Self.isNameFirst(first) else { return nil }
        var name = String.UnicodeScalarView()
        while let next = peek, Self.isNameFirst(next) || Self.isDigit(next) {
            name.append(next)
            position += 1
        }
        return .name(String(name))
    }

    /// `[` selector, selector... `]`, with whitespace around selectors and commas.
    private mutating func parseBracketed() throws(JSONPathError) -> [JSONPathSelector] {
        try enterNesting()
        defer { depth -= 1 }
        position += 1
        skipBlanks()
        var selectors: [JSONPathSelector] = []
        while true {
            selectors.append(try parseSelector())
            skipBlanks()
            switch peek {
            case ",":
                position += 1
                skipBlanks()
            case "]":
                position += 1
                return selectors
            default:
                throw error("expected ']'")
            }
        }
    }

    private mutating func parseSelector() throws(JSONPathError) -> JSONPathSelector {
        switch peek {
        case "'", "\"":
            return .name(try parseStringLiteral())
        case "*":
            position += 1
            return .wildcard
        case "?":
            position += 1
            skipBlanks()
            let expression = try parseLogicalExpression()
            return .filter(try JSONPathTyping.logical(expression))
        case let next? where next == "-" || next == ":" || Self.isDigit(next):
            return try parseIndexOrSlice()
        default:
            throw error("expected a selector: a quoted name, an index, a slice, '*' or a filter '?'")
        }
    }

    /// `index`, or `start:end:step` with each part optional and whitespace around the colons.
    private mutating func parseIndexOrSlice() throws(JSONPathError) -> JSONPathSelector {
        var start: Int?
        if peek != ":" {
            start = try parseInteger()
        }
        let afterStart = position
        skipBlanks()
        guard peek == ":" else {
            position = afterStart
            return .index(start ?? 0)
        }
        position += 1
        skipBlanks()
        var end: Int?
        if let next = peek, next == "-" || Self.isDigit(next) {
            end = try parseInteger()
            skipBlanks()
        }
        var step: Int?
        if peek == ":" {
            position += 1
            skipBlanks()
            if let next = peek, next == "-" || Self.isDigit(next) {
                step = try parseInteger()
            }
        }
        return .slice(start: start, end: end, step: step)
    }

    /// An RFC 9535 `int`: `0`, or an optional `-` and digits without a leading zero, within ±(2^53 - 1).
    private mutating func parseInteger() throws(JSONPathError) -> Int {
        let begin = position
        var negative = false
        if peek == "-" {
            negative = true
            position += 1
        }
        guard let first = peek, Self.isDigit(first) else { throw error("expected a digit") }
        if first == "0" {
            position += 1
            if negative { throw error("'-0' is not an index; write 0", at: begin) }
            if let next = peek, Self.isDigit(next) { throw error("an integer cannot start with 0", at: begin) }
            return 0
        }
        var value = 0
        while let next = peek, Self.isDigit(next) {
            // Past the limit the value stops growing, so it cannot overflow; it is refused below.
            if value <= Self.maximumInteger { value = value * 10 + Int(next.value - 48) }
            position += 1
        }
        guard value <= Self.maximumInteger else {
            throw error("integer out of range: at most 9007199254740991 either side of 0", at: begin)
        }
        return negative ? -value : value
    }

    /// A string in single or double quotes, with the RFC's escapes (`\uXXXX` surrogate pairs included).
    mutating func parseStringLiteral() throws(JSONPathError) -> String {
        let open = position
        guard let quote = peek else { throw error("expected a string") }
        position += 1
        var text = String.UnicodeScalarView()
        while true {
            guard let next = peek else { throw error("unterminated string", at: open) }
            if next == quote {
                position += 1
                return String(text)
            }
            if next == "\\" {
                text.append(try parseEscape(quote: quote))
                continue
            }
            guard next.value >= 0x20 else {
                throw error("a control character (\(Self.describe(next))) in a string must be escaped")
            }
            text.append(next)
            position += 1
        }
    }

    /// The escape at `position` (its backslash), read.
    private mutating func parseEscape(quote: Unicode.Scalar) throws(JSONPathError) -> Unicode.Scalar {
        let begin = position
        position += 1
        guard let letter = peek else { throw error("unterminated string") }
        position += 1
        switch letter {
        case "b": return "\u{08}"
        case "f": return "\u{0C}"
        case "n": return "\n"
        case "r": return "\r"
        case "t": return "\t"
        case "/": return "/"
        case "\\": return "\\"
        case quote: return quote
        case "u":
            var code = try parseHex4(escapeAt: begin)
            if (0xDC00...0xDFFF).contains(code) {
                throw error("\\u\(Self.hex(code)) is a low surrogate without a high surrogate before it", at: begin)
            }
            if (0xD800...0xDBFF).contains(code) {
                guard peek == "\\", position + 1 < scalars.count, scalars[position + 1] == "u" else {
                    throw error("\\u\(Self.hex(code)) is a high surrogate; a \\u escape of a low surrogate must follow", at: begin)
                }
                let lowAt = position
                position += 2
                let low = try parseHex4(escapeAt: lowAt)
                guard (0xDC00...0xDFFF).contains(low) else {
                    throw error("\\u\(Self.hex(code)) is a high surrogate; a \\u escape of a low surrogate must follow", at: begin)
                }
                code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
            }
            guard let scalar = Unicode.Scalar(code) else { throw error("invalid \\u escape", at: begin) }
            return scalar
        default:
            throw error("invalid escape '\\\(letter)' in a string", at: begin)
        }
    }

    private mutating func parseHex4(escapeAt begin: Int) throws(JSONPathError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let next = peek, let digit = Self.hexValue(next) else {
                throw error("\\u takes 4 hex digits", at: begin)
            }
            value = value << 4 | digit
            position += 1
        }
        return value
    }

    // MARK: Helpers shared with the filter parser

    var peek: Unicode.Scalar? {
        position < scalars.count ? scalars[position] : nil
    }

    /// Whether the text at `position` starts with `text` (ASCII).
    func lookingAt(_ text: String) -> Bool {
        var index = position
        for scalar in text.unicodeScalars {
            guard index < scalars.count, scalars[index] == scalar else { return false }
            index += 1
        }
        return true
    }

    mutating func skipBlanks() {
        while let next = peek, Self.isBlank(next) { position += 1 }
    }

    /// One more level of brackets, parentheses or calls; refused past ``maximumNesting``.
    mutating func enterNesting() throws(JSONPathError) {
        guard depth < Self.maximumNesting else {
            throw error("nesting deeper than \(Self.maximumNesting) levels")
        }
        depth += 1
    }

    func error(_ message: String, at offset: Int? = nil) -> JSONPathError {
        JSONPathError(message: message, offset: offset ?? min(position, scalars.count))
    }

    static func isBlank(_ scalar: Unicode.Scalar) -> Bool {
        scalar == " " || scalar == "\t" || scalar == "\n" || scalar == "\r"
    }

    static func isDigit(_ scalar: Unicode.Scalar) -> Bool {
        scalar >= "0" && scalar <= "9"
    }

    /// `name-first`: a letter, `_`, or any scalar from U+0080 on.
    static func isNameFirst(_ scalar: Unicode.Scalar) -> Bool {
        (scalar >= "a" && scalar <= "z") || (scalar >= "A" && scalar <= "Z") || scalar == "_" || scalar.value >= 0x80
    }

    static func hexValue(_ scalar: Unicode.Scalar) -> UInt32? {
        switch scalar {
        case "0"..."9": scalar.value - 48
        case "a"..."f": scalar.value - 87
        case "A"..."F": scalar.value - 55
        default: nil
        }
    }

    static func hex(_ value: UInt32) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }

    /// A scalar as the user would name it: `'x'`, `a space`, `U+0007`.
    static func describe(_ scalar: Unicode.Scalar) -> String {
        switch scalar {
        case " ": return "a space"
        case "\t": return "a tab"
        case "\n", "\r": return "a line break"
        default:
            if scalar.value < 0x20 || scalar.value == 0x7F || (0x80...0x9F).contains(scalar.value) {
                return "U+" + hex(scalar.value)
            }
            return "'\(scalar)'"
        }
    }
}
